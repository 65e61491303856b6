// Everything the Explore page knows and does, so the page is layout: the URL state, the metadata
// fields, the result, the selection shared with the map (and its keys, and its items for the bulk
// actions), the colouring, the cards' fields, the open item, Find similar, Back, and the grid's
// failure; in a comparison of two models (compare/), the comparison every request carries; and a
// link's request to select the whole result (`select=all`).
import { DATA_LEVELS, type Dataset } from '@loupe/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { ApiError } from '../../../api/ApiError';
import { useLicense } from '../../../api/hooks/useLicense';
import { useDatasetHistory } from '../../datasets';
import { useComparedModels } from '../compare/useComparedModels';
import { useColorMap } from '../../../api/hooks/useColorMap';
import { useExploreFields } from './useExploreFields';
import { useExploreResult } from './useExploreResult';
import { useExploreState } from './useExploreState';
import { useFindSimilar } from './useFindSimilar';
import { useMetadataInfo } from './useMetadataInfo';
import { useSelectionItems } from './useSelectionItems';
import { useSelectionKeys } from './useSelectionKeys';
import { useSharedSelection } from './useSharedSelection';
import { useViewerNavigation } from './useViewerNavigation';

const isStale = (error: unknown) => error instanceof ApiError && error.status === 409;

export function useExploreController(dataset: Dataset, predictionsId?: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const levels = DATA_LEVELS[dataset.task_type];
  const { state, update, subsetId } = useExploreState(levels);
  const { dataLevel } = state;
  const compared = useComparedModels(dataset.id, predictionsId, state.compare);
  const comparison = compared?.request;
  const metadata = useMetadataInfo(dataset.id, dataLevel, predictionsId, comparison);
  const history = useDatasetHistory(dataset.id);
  const classColors = useColorMap(dataset.id, dataset.task_type).data ?? {};
  const licensed = useLicense().data?.state === 'LICENSED';

  const result = useExploreResult({
    datasetId: dataset.id,
    dataLevel,
    sort: state.sort,
    filter: state.filter,
    subsetId,
    predictionsId,
    comparison,
  });
  const { itemRows, rows, version, context } = result;
  const selection = useSharedSelection({ rows, version, dataLevel, subsetId });
  // A model page's link asks for its whole result selected (`select=all`, exploreState.ts), so the
  // map highlights it. Once this query's rows are in (not the previous query's, kept meanwhile),
  // they are selected as Ctrl/Cmd+A selects them, and the request leaves the URL (replacing the
  // entry): a reload or a later filter keeps the user's own selection. Declared after the
  // selection, so it runs after the selection's reset for a new table version.
  const { selectAll } = selection;
  const rowsReady = rows !== undefined && !itemRows.isPlaceholderData;
  useEffect(() => {
    if (!state.selectAll || !rowsReady) return;
    selectAll();
    update({ selectAll: false });
  }, [state.selectAll, rowsReady, selectAll, update]);
  const { fields, cardFields, cardConfigFields, colorBy } = useExploreFields(
    metadata.data?.metadata_config,
    state.cardToggles,
    state.colorBy,
    classColors,
  );
  const viewer = useViewerNavigation({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    comparison,
    itemId: state.item,
    rows,
    version,
    context,
    update,
  });
  const findSimilar = useFindSimilar({
    datasetId: dataset.id,
    dataLevel,
    rows,
    rowsQuery: itemRows.data?.query,
    selectedRows: selection.selection.rows,
  });

  // The selected items as the curation actions (bulk actions) need them.
  const selectionItems = useSelectionItems({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    rows,
    version,
    rowsQuery: itemRows.data?.query,
    selectedRows: selection.selection.rows,
  });
  useSelectionKeys({
    enabled: state.item === null,
    hasSelection: selection.selection.rows.size > 0,
    onClear: selection.clear,
    onSelectAll: selection.selectAll,
  });

  const [gridError, setGridError] = useState<unknown>(null);
  // A 409 means the rows are stale; they are being refetched, so it is no failure.
  const onGridError = useCallback((error: unknown) => {
    if (!isStale(error)) setGridError(error);
  }, []);
  const retryGrid = () => {
    setGridError(null);
    void itemRows.refetch();
  };

  const goBack = () => {
    if (subsetId) {
      const root = predictionsId
        ? `/models/datasets/${dataset.id}/predictions/${predictionsId}`
        : `/datasets/${dataset.id}`;
      navigate(`${root}/subsets/${subsetId}`);
    } else if (location.key !== 'default') navigate(-1);
    else navigate(`/datasets/${dataset.id}/overview`);
  };

  return {
    levels,
    state,
    update,
    subsetId,
    dataLevel,
    metadata,
    fields,
    history: history.data ?? [],
    classColors,
    licensed,
    ...result,
    total: rows?.length ?? 0,
    numItems: itemRows.data?.numItems ?? 0,
    /** The rows call failed (other than stale rows) or the grid reported a failure. */
    gridFailed: Boolean(itemRows.error && !isStale(itemRows.error)) || Boolean(gridError),
    onGridError,
    retryGrid,
    ...selection,
    cardFields,
    cardConfigFields,
    colorBy,
    viewer,
    findSimilar,
    selectionItems,
    predictionsId,
    compared,
    goBack,
  };
}

export type ExploreController = ReturnType<typeof useExploreController>;
