// The Explore page (docs/product.md, Datasets §2): a toolbar (back, title, data level, sort,
// filter, colour, selection counter, Find similar) and, in the page header, the display controls
// (view, card config, zoom) over the virtualized grid, the embeddings map, or both split; the
// selection is shared by grid and map. The item viewer opens over it with ?item=<id> in the URL.
// Under a model route the prediction set is the context.
import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  DATA_LEVELS,
  type Dataset,
  type ExploreItem,
  type MetadataFieldInfo,
} from '@loupe/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Empty, Flex, Result, Segmented, Tooltip, Typography, theme } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { createPortal } from 'react-dom';
import { useLocation, useNavigate, useParams } from 'react-router';
import { ApiError } from '../../api/ApiError';
import { exploreApi } from '../../api/explore';
import { useLicense } from '../../api/hooks/useLicense';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page, type Crumb } from '../../components/Page';
import { commonStrings } from '../../components/strings';
import { useDataset, useDatasetHistory } from '../datasets';
import { EmbeddingsView } from '../embeddings';
import { modelCrumbs, useModel } from '../models';
import { colorAvailability, colorScale } from './colorRules';
import { FilterPopover } from './filter/FilterPopover';
import { FillHeight } from './FillHeight';
import { ExploreGrid } from './grid/ExploreGrid';
import { ITEMS_BATCH } from './gridRules';
import { useColorMap } from './hooks/useColorMap';
import { useExploreState } from './hooks/useExploreState';
import { itemBatchOptions, type BatchContext } from './hooks/useItemBatches';
import { itemIdsOptions, pairIdsWithRows } from './hooks/useItemIds';
import { useItemRows, type ItemRowsQuery } from './hooks/useItemRows';
import { useMetadataInfo } from './hooks/useMetadataInfo';
import { useOpenItemPosition } from './hooks/useOpenItem';
import { useSelection } from './hooks/useSelection';
import { ExploreLoading } from './ExploreLoading';
import { ItemViewerSlot } from './ItemViewerSlot';
import { SectionErrorBoundary } from './SectionErrorBoundary';
import { SplitPanes } from './SplitPanes';
import { exploreStrings as strings, levelLabel } from './strings';
import { ColorControl, colorMessages } from './toolbar/ColorControl';
import { ColorLegend } from './toolbar/ColorLegend';
import { DisplayControls } from './toolbar/DisplayControls';
import { SelectionActions } from './toolbar/SelectionActions';
import { SortControl } from './toolbar/SortControl';

/** The dataset's name in the toolbar gives way (ellipsis) before any control does. */
const TITLE_MAX_WIDTH = 220;

/** Card values the grid can show without a metadata field for them. */
const BUILTIN_FIELDS: Record<string, MetadataFieldInfo> = {
  label: builtin('label', 'Label'),
  split: builtin('split', 'Split'),
};

/** The label is 'label' at sample level and 'object.label' at object level: one card toggle. */
const LABEL_ALIASES: Record<string, string[]> = {
  label: ['label', 'object.label'],
  'object.label': ['object.label', 'label'],
};

function resolveField(
  id: string,
  fieldById: Map<string, MetadataFieldInfo>,
): MetadataFieldInfo | undefined {
  for (const alias of LABEL_ALIASES[id] ?? [id]) {
    const field = fieldById.get(alias);
    if (field) return field;
  }
  return BUILTIN_FIELDS[id];
}

function builtin(id: string, label: string): MetadataFieldInfo {
  return {
    id,
    name: id,
    label,
    description: '',
    group: 'Card config',
    source: 'builtin',
    state: 'available',
    type: 'string',
  };
}

function useCrumbs(datasetId: string, predictionSetId: string | undefined, name?: string): Crumb[] {
  const model = useModel(datasetId, predictionSetId).model;
  if (predictionSetId) {
    return modelCrumbs(datasetId, predictionSetId, { dataset: name, model: model?.name });
  }
  const crumbs: Crumb[] = [{ title: strings.datasets, to: '/datasets' }];
  if (name) crumbs.push({ title: name, to: `/datasets/${datasetId}/overview` });
  return crumbs;
}

export function ExplorePage() {
  const { datasetId = '', predictionSetId } = useParams();
  const dataset = useDataset(datasetId);
  const model = useModel(datasetId, predictionSetId);
  const crumbs = useCrumbs(datasetId, predictionSetId, dataset.data?.name);
  // The page header's tools area, where the explorer puts its display controls.
  const [headerSlot, setHeaderSlot] = useState<HTMLDivElement | null>(null);

  let body: React.ReactNode;
  if (dataset.isError && isNotFound(dataset.error)) {
    body = <NotFoundState title={strings.datasetNotFound} />;
  } else if (dataset.isError) {
    body = <ErrorFallback title={strings.datasetNotFound} error={dataset.error} status="404" />;
  } else if (dataset.data && model.notFound) {
    body = <NotFoundState title={strings.modelNotFound} />;
  } else if (!dataset.data || (predictionSetId && !model.model && !model.error)) {
    body = <ExploreLoading />;
  } else {
    body = (
      <SectionErrorBoundary
        fallback={(error) => (
          <ErrorFallback title={strings.pageFailed} error={error} status="500" />
        )}
      >
        <ExploreContent
          dataset={dataset.data}
          predictionsId={predictionSetId}
          headerSlot={headerSlot}
        />
      </SectionErrorBoundary>
    );
  }
  return (
    <Page
      title={strings.explore}
      breadcrumbs={crumbs}
      testId="explore"
      tools={<div ref={setHeaderSlot} style={{ display: 'contents' }} />}
    >
      {body}
    </Page>
  );
}

interface ExploreContentProps {
  dataset: Dataset;
  predictionsId?: string;
  /** Where the display controls go (the page header); none until it is mounted. */
  headerSlot: HTMLElement | null;
}

function ExploreContent({ dataset, predictionsId, headerSlot }: ExploreContentProps) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const levels = DATA_LEVELS[dataset.task_type];
  const { state, update, subsetId } = useExploreState(levels);
  const { dataLevel } = state;
  const metadata = useMetadataInfo(dataset.id, dataLevel, predictionsId);
  const history = useDatasetHistory(dataset.id);
  const classColors = useColorMap(dataset.id, dataset.task_type).data ?? {};

  const rowsQuery: ItemRowsQuery = useMemo(
    () => ({
      data_level: dataLevel,
      sort: state.sort,
      filter: state.filter,
      ...(subsetId ? { subset_id: subsetId } : {}),
      ...(predictionsId ? { predictions_id: predictionsId } : {}),
    }),
    [dataLevel, state.sort, state.filter, subsetId, predictionsId],
  );
  const itemRows = useItemRows(dataset.id, rowsQuery);
  const rows = itemRows.data?.rows;
  const version = itemRows.data?.version;
  const { selection, source, select, replace, clear } = useSelection(
    rows,
    `${dataLevel}:${version}`,
  );
  // The map speaks rows of the same item table: a lasso's rows are the selection as they are.
  // Rows of another table version (the data changed in between) mean nothing here.
  const onMapSelection = useCallback(
    (next: number[], pointsVersion: number) => {
      if (pointsVersion === version) replace(next, 'map');
    },
    [version, replace],
  );
  const levelLock =
    subsetId !== null
      ? strings.levelLockedBySubset
      : source === 'map' && selection.rows.size > 0
        ? strings.levelLockedByMap
        : undefined;
  const license = useLicense();
  const licensed = license.data?.state === 'LICENSED';
  const [gridError, setGridError] = useState<unknown>(null);
  // A 409 means the rows are stale; they are being refetched, so it is no failure.
  const onGridError = useCallback((error: unknown) => {
    if (!(error instanceof ApiError && error.status === 409)) setGridError(error);
  }, []);

  const fields = useMemo(() => metadata.data?.metadata_config ?? [], [metadata.data]);
  const fieldById = useMemo(() => new Map(fields.map((field) => [field.id, field])), [fields]);
  const cardFields = useMemo(() => {
    const resolved = state.cardToggles
      .map((id) => resolveField(id, fieldById))
      .filter((field): field is MetadataFieldInfo => field !== undefined);
    return resolved.filter((field, i) => resolved.findIndex((f) => f.id === field.id) === i);
  }, [state.cardToggles, fieldById]);
  const cardConfigFields = useMemo(() => {
    const extra = Object.values(BUILTIN_FIELDS).filter(
      (field) =>
        !LABEL_ALIASES[field.id]?.some((id) => fieldById.has(id)) && !fieldById.has(field.id),
    );
    return [...extra, ...fields];
  }, [fields, fieldById]);

  const colorField = state.colorBy ? fieldById.get(state.colorBy) : undefined;
  const colorBy = useMemo(() => {
    if (!colorField) return null;
    const { kind } = colorAvailability(colorField, colorMessages());
    return kind ? { field: colorField, scale: colorScale(colorField, kind, classColors) } : null;
    // classColors is a new object until the colour map arrives; its content is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colorField, JSON.stringify(classColors)]);

  const context: BatchContext | null = useMemo(
    () =>
      rows && version !== undefined
        ? {
            datasetId: dataset.id,
            dataLevel: itemRows.data!.query.data_level,
            predictionsId,
            rowsQuery: itemRows.data!.query,
            rows,
            version,
          }
        : null,
    [rows, version, dataset.id, predictionsId, itemRows.data],
  );

  // The open item: its position from the grid or the viewer, else looked up from the URL id.
  const [known, setKnown] = useState<{ id: string | null; position: number } | null>(null);
  const openPosition = useOpenItemPosition({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    itemId: state.item,
    rows,
    known,
  });
  const onOpen = useCallback(
    (position: number, item: ExploreItem) => {
      setKnown({ id: item.id, position });
      update({ item: item.id }, { push: true });
    },
    [update],
  );
  const onIndexChange = useCallback(
    (index: number) => {
      setKnown({ id: null, position: index });
      if (!context) return;
      const start = index - (index % ITEMS_BATCH);
      void queryClient
        .fetchQuery(itemBatchOptions(context, start, queryClient))
        .then((items) => {
          const id = items[index - start]?.id;
          if (!id) return;
          setKnown({ id, position: index });
          update({ item: id });
        })
        .catch(() => undefined);
    },
    [context, queryClient, update],
  );
  // A point opens its item: its id comes from the items call by row (the map carries no ids).
  const onOpenPoint = useCallback(
    (row: number, pointsVersion: number) => {
      void exploreApi
        .items(dataset.id, {
          data_level: dataLevel,
          rows: [row],
          version: pointsVersion,
          predictions_id: predictionsId,
        })
        .then(({ items }) => {
          const id = items[0]?.id;
          if (!id) return;
          const position = rows && pointsVersion === version ? rows.indexOf(row) : -1;
          setKnown(position >= 0 ? { id, position } : null);
          update({ item: id }, { push: true });
        })
        .catch(() => undefined);
    },
    [dataset.id, dataLevel, predictionsId, rows, version, update],
  );
  const findSimilar = useCallback(async () => {
    if (!rows || !itemRows.data) return;
    const pairs = pairIdsWithRows(
      rows,
      await queryClient.fetchQuery(itemIdsOptions(dataset.id, itemRows.data.query)),
    );
    if (!pairs) return;
    // In result order, so the query items read like the grid.
    const ids = [...rows]
      .filter((row) => selection.rows.has(row))
      .map((row) => pairs.idByRow.get(row)!);
    const search = new URLSearchParams({ sample_ids: ids.join(',') });
    if (dataLevel === 'image_object') search.set('data_level', dataLevel);
    navigate(
      `/datasets/${dataset.id}/subsets/selection/similar?${search.toString().replaceAll('%2C', ',')}`,
    );
  }, [rows, itemRows.data, queryClient, dataset.id, selection, dataLevel, navigate]);
  const onClose = useCallback(() => {
    setKnown(null);
    update({ item: null });
  }, [update]);

  // A subset_id naming no subset fails the rows call: that is the page's not-found state.
  if (subsetId !== null && isNotFound(itemRows.error)) {
    return <NotFoundState title={strings.subsetNotFound} />;
  }
  if (metadata.isError) {
    return isNotFound(metadata.error) ? (
      <NotFoundState title={strings.datasetNotFound} />
    ) : (
      <ErrorFallback title={strings.datasetNotFound} error={metadata.error} status="404" />
    );
  }
  // The grid does not wait for the metadata info: rows and items load alongside it, and the
  // toolbar's property lists fill in when it arrives.

  const total = rows?.length ?? 0;
  const numItems = itemRows.data?.numItems ?? 0;
  const filtered = state.filter !== null;
  const goBack = () => {
    if (subsetId) navigate(`/datasets/${dataset.id}/subsets/${subsetId}`);
    else if (location.key !== 'default') navigate(-1);
    else navigate(`/datasets/${dataset.id}/overview`);
  };

  // The query controls (what is shown, in which order and colour) and the selection sit on one
  // line above the grid; the display controls (view, card values, card size) sit in the page
  // header, so the line does not wrap at 1280 px with a sort, a colour and a selection active.
  const toolbar = (
    <Flex vertical gap={8} style={{ marginBottom: 12 }}>
      <Flex
        gap={8}
        wrap="wrap"
        align="center"
        justify="space-between"
        data-testid="explore-toolbar"
      >
        <Flex gap={8} align="center" style={{ flex: '1 1 auto', minWidth: 0 }}>
          <Tooltip title={strings.back}>
            <Button icon={<ArrowLeftOutlined />} aria-label={strings.back} onClick={goBack} />
          </Tooltip>
          {/* The title takes what room is left (up to its own width): it gives way before a
              control does, and before the selection wraps to a second line. */}
          <div style={{ width: 0, flexGrow: 1, minWidth: 48, maxWidth: 'max-content' }}>
            <Typography.Title
              level={5}
              ellipsis={{ tooltip: dataset.name }}
              style={{ margin: 0, marginInlineEnd: 8, maxWidth: TITLE_MAX_WIDTH }}
            >
              {dataset.name}
            </Typography.Title>
          </div>
          {levels.length > 1 && (
            <Tooltip title={levelLock}>
              <Segmented
                aria-label={strings.dataLevel}
                value={dataLevel}
                disabled={levelLock !== undefined}
                options={levels.map((level) => ({
                  value: level,
                  label: levelLabel(level, dataset.task_type),
                }))}
                onChange={(level) =>
                  update({ dataLevel: level, sort: [], filter: null, colorBy: null, item: null })
                }
              />
            </Tooltip>
          )}
          <SortControl
            sort={state.sort}
            fields={fields}
            disabled={!metadata.data}
            onChange={(sort) => update({ sort })}
          />
          <FilterPopover
            applied={state.filter}
            fields={fields}
            history={history.data ?? []}
            dataLevel={dataLevel}
            taskType={dataset.task_type}
            disabled={!metadata.data}
            onChange={(filter) => update({ filter })}
          />
          <div style={{ flexShrink: 0 }}>
            <ColorControl
              colorBy={state.colorBy}
              fields={fields}
              disabled={!metadata.data}
              onChange={(colorBy) => update({ colorBy })}
            />
          </div>
        </Flex>
        <Flex gap={8} align="center" style={{ flex: 'none', marginInlineStart: 'auto' }}>
          {selection.rows.size > 0 && (
            <SelectionActions
              count={selection.rows.size}
              licensed={licensed}
              onClear={clear}
              onFindSimilar={() => void findSimilar()}
            />
          )}
          {itemRows.data && (
            <Typography.Text type="secondary" data-testid="items-count">
              {strings.itemsCount(total, numItems)}
            </Typography.Text>
          )}
        </Flex>
      </Flex>
      {colorBy && <ColorLegend field={colorBy.field} scale={colorBy.scale} />}
    </Flex>
  );
  const displayControls = (
    <DisplayControls
      view={state.view}
      onViewChange={(view) => update({ view }, { push: true })}
      cards={
        state.view === 'embeddings'
          ? null
          : {
              fields: cardConfigFields,
              toggles: cardFields.map((field) => field.id),
              onTogglesChange: (cardToggles) => update({ cardToggles }),
              width: state.cardWidth,
              onWidthChange: (cardWidth) => update({ cardWidth }),
            }
      }
    />
  );

  let grid: React.ReactNode;
  const rowsError =
    itemRows.error && !(itemRows.error instanceof ApiError && itemRows.error.status === 409);
  if (rowsError || gridError) {
    grid = (
      <Result
        status="error"
        title={strings.gridFailed}
        extra={
          <Button
            onClick={() => {
              setGridError(null);
              void itemRows.refetch();
            }}
          >
            {commonStrings.retry}
          </Button>
        }
      />
    );
  } else if (!context) {
    grid = <ExploreLoading />;
  } else if (total === 0 && !itemRows.isPlaceholderData) {
    grid =
      filtered || numItems > 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={strings.noResults}
          style={{ padding: 48 }}
        >
          <Button type="primary" onClick={() => update({ filter: null })}>
            {strings.clearFilters}
          </Button>
        </Empty>
      ) : (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          style={{ padding: 48 }}
          description={
            <Flex vertical>
              <Typography.Text>{strings.noItems}</Typography.Text>
              <Typography.Text type="secondary">{strings.noItemsHint}</Typography.Text>
            </Flex>
          }
        />
      );
  } else {
    grid = (
      <SectionErrorBoundary fallback={() => <Result status="error" title={strings.gridFailed} />}>
        <ExploreGrid
          context={context}
          cardWidth={state.cardWidth}
          audio={dataLevel === 'audio'}
          fields={cardFields}
          colorBy={colorBy}
          classColors={classColors}
          classes={dataset.class_names}
          labelMap={dataset.label_map}
          selection={selection}
          stale={itemRows.isPlaceholderData || itemRows.isFetching}
          onSelect={select}
          onOpen={onOpen}
          onError={onGridError}
          layoutKey={`${colorBy?.field.id}:${selection.rows.size > 0}`}
        />
      </SectionErrorBoundary>
    );
  }

  const map = (
    <FillHeight testId="explore-map">
      <SectionErrorBoundary
        fallback={() => <Result status="error" title={strings.embeddingsFailed} />}
      >
        <EmbeddingsView
          dataset={dataset}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          filter={state.filter}
          colorBy={colorBy ? state.colorBy : null}
          selectedRows={selection.rows}
          tableVersion={version}
          onSelectionChange={onMapSelection}
          onOpenItem={onOpenPoint}
        />
      </SectionErrorBoundary>
    </FillHeight>
  );
  let body: React.ReactNode = grid;
  if (state.view === 'embeddings') body = map;
  else if (state.view === 'split') body = <SplitPanes left={grid} right={map} />;

  return (
    <div style={{ color: token.colorText }}>
      {headerSlot && createPortal(displayControls, headerSlot)}
      {toolbar}
      {body}
      {state.item !== null && openPosition !== null && rows && version !== undefined && (
        <ItemViewerSlot
          dataset={dataset}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          rows={rows}
          version={version}
          index={openPosition}
          cardConfigIds={cardFields.map((field) => field.id)}
          onIndexChange={onIndexChange}
          onClose={onClose}
        />
      )}
    </div>
  );
}
