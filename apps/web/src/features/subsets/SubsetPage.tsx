// One subset (docs/product.md, Datasets §2; docs/curation.md), at a dataset's and at a model's
// route: breadcrumbs to the dataset and the subset's name; 'Loading subset', 'Subset not found';
// a toolbar (Delete All, Find Similar Items to All, Preview All in Embeddings, Export, Open in
// Explorer); the subset's items in a grid with a selection (clear, find similar, remove from the
// subset, and the curation actions that queue pending changes). The data level is the subset's.
import {
  ClearOutlined,
  DeleteOutlined,
  DotChartOutlined,
  SearchOutlined,
  TableOutlined,
} from '@ant-design/icons';
import { type Dataset, type ExploreItem, type SubsetDetail } from '@loupe/contracts';
import { App, Button, Card, Empty, Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { useCallback, useMemo, useRef } from 'react';
import { Link, useNavigate } from 'react-router';
import { describeError } from '../../api/ApiError';
import { useItemPreviews } from '../../api/hooks/useItemPreviews';
import { useLicense } from '../../api/hooks/useLicense';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { DelayedLoading } from '../../components/DelayedLoading';
import { DisabledTooltip } from '../../components/DisabledTooltip';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { formatRelativeTime } from '../../lib/relativeTime';
import {
  ItemActions,
  PendingChangesBox,
  PendingChangesProvider,
  usePendingChanges,
  type ActionItem,
} from '../curation';
import { ExportMenu } from './components/ExportMenu';
import { routeProblem } from './components/routeProblem';
import { SubsetGrid } from './components/SubsetGrid';
import { useExportSubset } from './hooks/useExportSubset';
import { useItemSelection } from './hooks/useItemSelection';
import { useSubset } from './hooks/useSubset';
import { useSubsetRoute } from './hooks/useSubsetRoute';
import { useUpdateSubset } from './hooks/useUpdateSubset';
import { explorePath, levelLabel, selectedInOrder, similarPath } from './subsetRules';
import { subsetStrings as strings } from './strings';

export function SubsetPage() {
  const route = useSubsetRoute();
  const { datasetId, subsetId, predictionSetId, crumbs } = route;
  const subset = useSubset(datasetId, subsetId);
  const problem = routeProblem(route);

  let title: string = strings.subset;
  if (subset.data) title = subset.data.name;
  // The model pages name a missing subset in the breadcrumbs (docs/product.md, Models §2).
  else if (predictionSetId && subset.isError) title = strings.notFoundCrumb;

  let body: React.ReactNode;
  if (problem) body = problem;
  else if (subset.isError) {
    body = isNotFound(subset.error) ? (
      <NotFoundState title={strings.notFound} />
    ) : (
      <ErrorFallback
        title={strings.notFound}
        error={subset.error}
        onRetry={() => void subset.refetch()}
      />
    );
  } else if (!subset.data || !route.dataset.data) {
    body = <DelayedLoading label={strings.loading} />;
  } else {
    body = (
      <PendingChangesProvider datasetId={datasetId}>
        <SubsetContent
          dataset={route.dataset.data}
          subset={subset.data}
          root={route.root}
          predictionsId={predictionSetId}
          onChanged={() => void subset.refetch()}
        />
      </PendingChangesProvider>
    );
  }
  return (
    <Page title={title} breadcrumbs={crumbs} testId="subset">
      {body}
    </Page>
  );
}

interface ContentProps {
  dataset: Dataset;
  subset: SubsetDetail;
  root: string;
  predictionsId?: string;
  /** Pending changes were applied: the subset may have changed. */
  onChanged(): void;
}

function SubsetContent({ dataset, subset, root, predictionsId, onChanged }: ContentProps) {
  const { token } = theme.useToken();
  const { modal, message, notification } = App.useApp();
  const navigate = useNavigate();
  const licensed = useLicense().data?.state === 'LICENSED';
  const update = useUpdateSubset(dataset.id);
  const pending = usePendingChanges();
  const itemIds = subset.sample_ids;
  const { selection, select, clear } = useItemSelection(itemIds);
  const selected = useMemo(() => selectedInOrder(itemIds, selection.ids), [itemIds, selection]);
  const exports = useExportSubset({
    datasetId: dataset.id,
    subsetId: subset.id,
    taskType: dataset.task_type,
    predictionsId,
  });
  // Every item the grid loaded, so the selection's actions know each item's sample.
  const loaded = useRef(new Map<string, ExploreItem>());
  const onItems = useCallback((items: ReadonlyMap<string, ExploreItem>) => {
    for (const [id, item] of items) loaded.current.set(id, item);
  }, []);

  const writeLock = licensed ? null : strings.needsLicense;
  const similarLock = licensed ? null : strings.similarNeedsLicense;
  const empty = itemIds.length === 0;

  // Delete All empties the subset at once (its items stay in the dataset), after a confirmation.
  const removeAll = () =>
    void modal.confirm({
      title: strings.deleteAllTitle(subset.name),
      content: strings.deleteAllText(itemIds.length),
      okText: strings.removeOk,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: () =>
        update.mutateAsync({ subsetId: subset.id, change: { removed_item_ids: itemIds } }).then(
          () => {
            clear();
            void message.success(strings.removed(itemIds.length, subset.name));
          },
          (error: unknown) =>
            void notification.error({
              title: strings.updateFailed,
              description: describeError(error),
            }),
        ),
    });

  const toolbar = (
    <Flex gap={8} wrap="wrap" justify="flex-end">
      <DisabledTooltip reason={writeLock}>
        <Button
          danger
          icon={<DeleteOutlined />}
          disabled={writeLock !== null || empty}
          onClick={removeAll}
        >
          {strings.deleteAll}
        </Button>
      </DisabledTooltip>
      <DisabledTooltip reason={similarLock}>
        <Button
          icon={<SearchOutlined />}
          disabled={similarLock !== null || empty}
          onClick={() => void navigate(similarPath(root, subset))}
        >
          {strings.findSimilarToAll}
        </Button>
      </DisabledTooltip>
      <Link to={explorePath(root, subset, { view: 'embeddings' })}>
        <Button icon={<DotChartOutlined />} disabled={empty}>
          {strings.previewInEmbeddings}
        </Button>
      </Link>
      <ExportMenu choices={exports} disabledReason={licensed ? null : strings.exportNeedsLicense} />
      <Link to={explorePath(root, subset)}>
        <Button type="primary" icon={<TableOutlined />}>
          {strings.openInExplorer}
        </Button>
      </Link>
    </Flex>
  );

  return (
    <Flex vertical gap={16} style={{ color: token.colorText }}>
      <Flex vertical gap={8}>
        <Flex gap={12} align="center" wrap="wrap" justify="space-between">
          <Flex gap={8} align="center" style={{ flex: 'none' }}>
            <Tooltip title={strings.levelLocked}>
              <Tag style={{ marginInlineEnd: 0 }} data-testid="subset-level">
                {levelLabel(dataset.task_type, subset.data_level)}
              </Tag>
            </Tooltip>
            <Typography.Text strong data-testid="subset-count">
              {strings.itemsCount(itemIds.length)}
            </Typography.Text>
            <Typography.Text type="secondary" title={new Date(subset.created).toLocaleString()}>
              {strings.created(formatRelativeTime(subset.created))}
            </Typography.Text>
          </Flex>
          {toolbar}
        </Flex>
        {subset.description && (
          <Typography.Paragraph type="secondary" style={{ margin: 0 }} ellipsis={{ rows: 2 }}>
            {subset.description}
          </Typography.Paragraph>
        )}
      </Flex>

      {pending.changes.length > 0 && (
        <Card size="small" title={strings.pendingChanges} data-testid="subset-pending">
          <PendingChangesBox
            onApplied={() => {
              clear();
              onChanged();
            }}
          />
        </Card>
      )}

      {selected.length > 0 && (
        <SelectionBar
          dataset={dataset}
          subset={subset}
          root={root}
          predictionsId={predictionsId}
          selected={selected}
          loaded={loaded.current}
          licensed={licensed}
          onClear={clear}
          onFindSimilar={() => void navigate(similarPath(root, subset, selected))}
        />
      )}

      {empty ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          style={{ padding: 48 }}
          data-testid="subset-empty"
          description={
            <Flex vertical gap={4}>
              <Typography.Text strong>{strings.empty}</Typography.Text>
              <Typography.Text type="secondary">{strings.emptyHint}</Typography.Text>
            </Flex>
          }
        >
          <Link to={`${root}/explore`}>
            <Button type="primary" icon={<SearchOutlined />}>
              {strings.exploreDataset}
            </Button>
          </Link>
        </Empty>
      ) : (
        <SubsetGrid
          subsetId={subset.id}
          datasetId={dataset.id}
          dataLevel={subset.data_level}
          predictionsId={predictionsId}
          itemIds={itemIds}
          selection={selection}
          onSelect={select}
          onOpen={(item) => void navigate(explorePath(root, subset, { item }))}
          onItems={onItems}
        />
      )}
    </Flex>
  );
}

interface SelectionBarProps {
  dataset: Dataset;
  subset: SubsetDetail;
  root: string;
  predictionsId?: string;
  selected: string[];
  loaded: ReadonlyMap<string, ExploreItem>;
  licensed: boolean;
  onClear(): void;
  onFindSimilar(): void;
}

/**
 * The selection's count and actions: clear, find similar, and the actions that queue pending
 * changes (remove from this subset, move, add to another, relabel, delete …).
 */
function SelectionBar(props: SelectionBarProps) {
  const { dataset, subset, predictionsId, selected, loaded, licensed } = props;
  const { token } = theme.useToken();
  // An object's sample comes with the item; ask for the selected objects the grid has not loaded.
  const unknown = useMemo(
    () =>
      subset.data_level === 'image_object'
        ? selected.filter((id) => !loaded.has(id)).slice(0, 1000)
        : [],
    [subset.data_level, selected, loaded],
  );
  const looked = useItemPreviews(dataset.id, subset.data_level, unknown, predictionsId);
  const items: ActionItem[] = useMemo(
    () =>
      selected.map((id) => {
        const item = loaded.get(id) ?? looked.data?.get(id);
        return { id, type: 'gt', sampleId: item?.sample_id ?? id };
      }),
    [selected, loaded, looked.data],
  );
  return (
    <Flex
      gap={8}
      align="center"
      wrap="wrap"
      data-testid="subset-selection"
      style={{
        padding: '8px 12px',
        borderRadius: token.borderRadiusLG,
        background: token.colorPrimaryBg,
        border: `1px solid ${token.colorPrimaryBorder}`,
      }}
    >
      <Typography.Text strong>{strings.selected(selected.length)}</Typography.Text>
      <Button size="small" icon={<ClearOutlined />} onClick={props.onClear}>
        {strings.clearSelection}
      </Button>
      <DisabledTooltip reason={licensed ? null : strings.similarNeedsLicense}>
        <Button
          size="small"
          icon={<SearchOutlined />}
          disabled={!licensed}
          onClick={props.onFindSimilar}
        >
          {strings.findSimilar}
        </Button>
      </DisabledTooltip>
      <ItemActions
        datasetId={dataset.id}
        taskType={dataset.task_type}
        dataLevel={subset.data_level}
        items={items}
        predictionsId={predictionsId}
        currentSubsetId={subset.id}
        licensed={licensed}
        mode="buttons"
        dataset={dataset}
        onQueued={props.onClear}
      />
    </Flex>
  );
}
