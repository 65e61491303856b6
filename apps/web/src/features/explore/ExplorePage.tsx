// The Explore page (docs/product.md, Datasets §2): a toolbar (back, title, data level, sort,
// filter, colour, selection counter, Find similar) and, in the page header, the display controls
// (view, card config, zoom) over the virtualized grid, the embeddings map, or both split; the
// selection is shared by grid and map. The item viewer opens over it with ?item=<id> in the URL.
// Under a model route the prediction set is the context; a comparison of two models (compare/)
// adds a banner and both models' predictions on cards and in the viewer. What the page knows and
// does is in hooks/useExploreController.ts; this file is layout.
import type { Dataset } from '@loupe/contracts';
import { Button, Empty, Flex, Result, Typography, theme } from 'antd';
import { Suspense, lazy, useState } from 'react';
import { createPortal } from 'react-dom';
import { useParams } from 'react-router';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import type { AttributionDisplay } from '../../components/AttributionOverlay';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page, type Crumb } from '../../components/Page';
import { commonStrings } from '../../components/strings';
import { PendingChangesProvider } from '../curation';
import { useDataset } from '../datasets';
import { EmbeddingsView } from '../embeddings';
import { modelCrumbs, useModel } from '../models';
import { CompareBanner } from './compare/CompareBanner';
import { comparedTasks } from './compare/comparedTasks';
import { leaveComparison } from './compare/leaveComparison';
import { ExploreLoading } from './ExploreLoading';
import { FillHeight } from './FillHeight';
import { ExploreGrid } from './grid/ExploreGrid';
import { useAttributionDisplay } from './hooks/useAttributionDisplay';
import { useExploreController, type ExploreController } from './hooks/useExploreController';
import { useSubsetLevel } from './hooks/useSubsetLevel';
import { SelectionPerformanceSidebar } from './performance/SelectionPerformanceSidebar';
import { SectionErrorBoundary } from './SectionErrorBoundary';
import { SplitPanes } from './SplitPanes';
import { exploreStrings as strings } from './strings';
import { AttributionControl } from './toolbar/AttributionControl';
import { DisplayControls } from './toolbar/DisplayControls';
import { ExploreToolbar } from './toolbar/ExploreToolbar';
import { SelectionItemActions } from './toolbar/SelectionItemActions';

// The item viewer is its own chunk, loaded when an item is first opened.
const ItemViewer = lazy(() =>
  import('../item-viewer').then((module) => ({ default: module.ItemViewer })),
);

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
  // A subset link without a level waits for the subset's level (hooks/useSubsetLevel.ts).
  const levelReady = useSubsetLevel(datasetId);
  // The page header's tools area, where the explorer puts its display controls.
  const [headerSlot, setHeaderSlot] = useState<HTMLDivElement | null>(null);

  let body: React.ReactNode;
  if (dataset.isError && isNotFound(dataset.error)) {
    body = <NotFoundState title={strings.datasetNotFound} />;
  } else if (dataset.isError) {
    body = <ErrorFallback title={strings.datasetNotFound} error={dataset.error} status="404" />;
  } else if (dataset.data && model.notFound) {
    body = <NotFoundState title={strings.modelNotFound} />;
  } else if (!dataset.data || !levelReady || (predictionSetId && !model.model && !model.error)) {
    body = <ExploreLoading model={Boolean(predictionSetId)} />;
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
  // One pending-changes queue for the page: the bulk actions and the item viewer fill it.
  return (
    <PendingChangesProvider datasetId={datasetId}>
      <Page
        title={strings.explore}
        breadcrumbs={crumbs}
        testId="explore"
        tools={<div ref={setHeaderSlot} style={{ display: 'contents' }} />}
      >
        {body}
      </Page>
    </PendingChangesProvider>
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
  const explore = useExploreController(dataset, predictionsId);
  const { state, update, dataLevel, metadata, rows, version, viewer } = explore;
  const attribution = useAttributionDisplay(dataset, predictionsId, dataLevel, state, update);

  // A subset_id naming no subset fails the rows call: that is the page's not-found state.
  if (explore.subsetId !== null && isNotFound(explore.itemRows.error)) {
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

  // The query controls (what is shown, in which order and colour) and the selection sit on one
  // line above the grid; the display controls (view, card values, card size) sit in the page
  // header, so the line does not wrap at 1280 px with a sort, a colour and a selection active.
  const displayControls = (
    <DisplayControls
      view={state.view}
      onViewChange={(view) => update({ view }, { push: true })}
      attribution={attribution.supported && <AttributionControl attribution={attribution} />}
      cards={
        state.view === 'embeddings'
          ? null
          : {
              fields: explore.cardConfigFields,
              toggles: explore.cardFields.map((field) => field.id),
              onTogglesChange: (cardToggles) => update({ cardToggles }),
              width: state.cardWidth,
              onWidthChange: (cardWidth) => update({ cardWidth }),
            }
      }
    />
  );
  const grid = (
    <GridArea
      dataset={dataset}
      explore={explore}
      model={Boolean(predictionsId)}
      attribution={attribution.display}
    />
  );
  const map = (
    <FillHeight testId="explore-map">
      <SectionErrorBoundary
        fallback={() => <Result status="error" title={strings.embeddingsFailed} />}
      >
        <EmbeddingsView
          dataset={dataset}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          compared={explore.compared}
          filter={state.filter}
          subsetId={explore.subsetId ?? undefined}
          colorBy={explore.colorBy ? state.colorBy : null}
          selectedRows={explore.selection.rows}
          tableVersion={version}
          onSelectionChange={explore.onMapSelection}
          onOpenItem={viewer.onOpenPoint}
          selectionActions={<SelectionItemActions dataset={dataset} explore={explore} />}
        />
      </SectionErrorBoundary>
    </FillHeight>
  );
  let body: React.ReactNode = grid;
  if (state.view === 'embeddings') body = map;
  else if (state.view === 'split') body = <SplitPanes left={grid} right={map} />;
  // Under a model, the performance of the selection (or the filter) sits beside the result.
  if (predictionsId) {
    body = (
      <Flex gap={12} align="flex-start">
        <div style={{ flex: 1, minWidth: 0 }}>{body}</div>
        <SelectionPerformanceSidebar
          dataset={dataset}
          predictionSetId={predictionsId}
          dataLevel={dataLevel}
          comparison={explore.compared?.request}
          filter={state.filter}
          subsetId={explore.subsetId}
          selectedCount={explore.selection.rows.size}
          selectedItems={explore.selectionItems}
        />
      </Flex>
    );
  }

  return (
    <div style={{ color: token.colorText }}>
      {headerSlot && createPortal(displayControls, headerSlot)}
      <ExploreToolbar dataset={dataset} explore={explore} />
      {explore.compared && (
        <CompareBanner
          datasetId={dataset.id}
          models={explore.compared}
          onLeave={() => update(leaveComparison(state), { push: true })}
        />
      )}
      {body}
      {state.item !== null && viewer.openPosition !== null && rows && version !== undefined && (
        <Suspense fallback={null}>
          <ItemViewer
            dataset={dataset}
            dataLevel={dataLevel}
            predictionsId={predictionsId}
            compared={explore.compared}
            rows={rows}
            version={version}
            index={viewer.openPosition}
            cardConfigIds={explore.cardFields.map((field) => field.id)}
            subsetId={explore.subsetId ?? undefined}
            attribution={
              attribution.display && {
                ...attribution.display,
                onOpacityChange: attribution.setOpacity,
              }
            }
            onIndexChange={viewer.onIndexChange}
            onClose={viewer.onClose}
          />
        </Suspense>
      )}
    </div>
  );
}

/** The grid, or why there is none: a failure with Retry, loading, no results, no items. */
function GridArea({
  dataset,
  explore,
  model,
  attribution,
}: {
  dataset: Dataset;
  explore: ExploreController;
  model: boolean;
  attribution: AttributionDisplay | null;
}) {
  const { state, update, context, itemRows, colorBy, selection } = explore;
  if (explore.gridFailed) {
    return (
      <Result
        status="error"
        title={strings.gridFailed}
        extra={<Button onClick={explore.retryGrid}>{commonStrings.retry}</Button>}
      />
    );
  }
  if (!context) return <ExploreLoading model={model} />;
  if (explore.total === 0 && !itemRows.isPlaceholderData) {
    return state.filter !== null || explore.numItems > 0 ? (
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
  }
  return (
    <SectionErrorBoundary fallback={() => <Result status="error" title={strings.gridFailed} />}>
      <ExploreGrid
        context={context}
        cardWidth={state.cardWidth}
        audio={explore.dataLevel === 'audio'}
        fields={explore.cardFields}
        colorBy={colorBy}
        classColors={explore.classColors}
        classes={dataset.class_names}
        labelMap={dataset.label_map}
        selection={selection}
        stale={itemRows.isPlaceholderData || itemRows.isFetching}
        onSelect={explore.select}
        onOpen={explore.viewer.onOpen}
        onError={explore.onGridError}
        layoutKey={`${colorBy?.field.id}:${selection.rows.size > 0}:${Boolean(explore.compared)}`}
        attribution={attribution}
        compared={explore.compared}
        comparedTags={Boolean(explore.compared) && comparedTasks.tags(dataset.task_type)}
      />
    </SectionErrorBoundary>
  );
}
