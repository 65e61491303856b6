// The subsets table (docs/product.md, Datasets §2; docs/curation.md), at a dataset's and at a
// model's route: search by name, sortable columns, pages of 10 by default (the size is kept in
// local storage), rows that open the subset, and per row rename/describe, delete (confirmed) and
// the performance toggle. Without a valid license the writes are disabled with the reason.
import { DeleteOutlined, EditOutlined, SearchOutlined } from '@ant-design/icons';
import type { Dataset, Subset } from '@loupe/contracts';
import {
  App,
  Button,
  Empty,
  Flex,
  Input,
  Switch,
  Table,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { describeError } from '../../api/ApiError';
import { useLicense } from '../../api/hooks/useLicense';
import { DelayedLoading } from '../../components/DelayedLoading';
import { DisabledTooltip } from '../../components/DisabledTooltip';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { formatRelativeTime } from '../../lib/relativeTime';
import { emitTestEvent } from '../../lib/testEvents';
import { EditSubsetModal } from './components/EditSubsetModal';
import { routeProblem } from './components/routeProblem';
import { useDeleteSubset } from './hooks/useDeleteSubset';
import { usePageSize } from './hooks/usePageSize';
import { useSubsetRoute } from './hooks/useSubsetRoute';
import { useSubsets } from './hooks/useSubsets';
import { useUpdateSubset } from './hooks/useUpdateSubset';
import { PAGE_SIZE_OPTIONS, levelLabel, matchesSearch, subsetPath } from './subsetRules';
import { subsetStrings as strings } from './strings';

function When({ ms, now }: { ms: number; now: number }) {
  return (
    <Tooltip title={new Date(ms).toLocaleString()}>
      <Typography.Text>{formatRelativeTime(ms, now)}</Typography.Text>
    </Tooltip>
  );
}

export function SubsetsPage() {
  const route = useSubsetRoute();
  const { datasetId, root, crumbs } = route;
  const subsets = useSubsets(datasetId);
  const problem = routeProblem(route);

  let body: React.ReactNode;
  if (problem) body = problem;
  else if (subsets.isError) {
    body = (
      <ErrorFallback
        title={strings.loadFailed}
        error={subsets.error}
        onRetry={() => void subsets.refetch()}
      />
    );
  } else if (!subsets.data || !route.dataset.data) {
    body = <DelayedLoading />;
  } else if (subsets.data.length === 0) {
    body = (
      <Empty
        image={Empty.PRESENTED_IMAGE_SIMPLE}
        style={{ padding: 48 }}
        data-testid="subsets-empty"
        description={
          <Flex vertical gap={4}>
            <Typography.Text strong>{strings.noSubsets}</Typography.Text>
            <Typography.Text type="secondary">{strings.noSubsetsHint}</Typography.Text>
          </Flex>
        }
      >
        <Link to={`${root}/explore`}>
          <Button type="primary" icon={<SearchOutlined />}>
            {strings.exploreDataset}
          </Button>
        </Link>
      </Empty>
    );
  } else {
    body = (
      <SubsetsTable
        dataset={route.dataset.data}
        root={root}
        subsets={subsets.data}
        now={subsets.dataUpdatedAt || Date.now()}
      />
    );
  }
  return (
    <Page title={strings.subsets} breadcrumbs={crumbs} testId="subsets">
      {body}
    </Page>
  );
}

function SubsetsTable({
  dataset,
  root,
  subsets,
  now,
}: {
  dataset: Dataset;
  root: string;
  subsets: Subset[];
  now: number;
}) {
  const { modal, message, notification } = App.useApp();
  const licensed = useLicense().data?.state === 'LICENSED';
  const locked = licensed ? null : strings.needsLicense;
  const update = useUpdateSubset(dataset.id);
  const remove = useDeleteSubset(dataset.id);
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = usePageSize();
  const [editing, setEditing] = useState<Subset | null>(null);
  const [toggling, setToggling] = useState<ReadonlySet<string>>(new Set());

  const shown = useMemo(
    () => subsets.filter((subset) => matchesSearch(subset, search)),
    [subsets, search],
  );
  // A page past the end (after a search or a delete) shows the last page instead.
  const lastPage = Math.max(1, Math.ceil(shown.length / pageSize));
  const current = Math.min(page, lastPage);
  const rowsOnPage = Math.max(0, Math.min(pageSize, shown.length - (current - 1) * pageSize));
  useEffect(() => {
    emitTestEvent({ type: 'subsets:rendered', rows: rowsOnPage, total: subsets.length });
  }, [rowsOnPage, subsets.length]);

  const togglePerformance = (subset: Subset, enabled: boolean) => {
    setToggling((ids) => new Set(ids).add(subset.id));
    update.mutate(
      { subsetId: subset.id, change: { enabled_for_performance: enabled } },
      {
        onError: (error) =>
          void notification.error({
            title: strings.updateFailed,
            description: describeError(error),
          }),
        onSettled: () =>
          setToggling((ids) => {
            const next = new Set(ids);
            next.delete(subset.id);
            return next;
          }),
      },
    );
  };

  const confirmDelete = (subset: Subset) =>
    void modal.confirm({
      title: strings.deleteTitle(subset.name),
      content: strings.deleteText,
      okText: strings.delete,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: () =>
        remove.mutateAsync(subset.id).then(
          () => void message.success(strings.deleted(subset.name)),
          (error: unknown) =>
            void notification.error({
              title: strings.deleteFailed,
              description: describeError(error),
            }),
        ),
    });

  const columns: TableColumnsType<Subset> = [
    {
      key: 'name',
      title: strings.columns.name,
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (_, subset) => (
        <Flex vertical style={{ minWidth: 0 }}>
          <Link to={subsetPath(root, subset.id)} data-testid="subset-link">
            <Typography.Text strong style={{ color: 'inherit' }}>
              {subset.name}
            </Typography.Text>
          </Link>
          {subset.description && (
            <Typography.Text type="secondary" ellipsis={{ tooltip: subset.description }}>
              {subset.description}
            </Typography.Text>
          )}
        </Flex>
      ),
    },
    {
      key: 'dataLevel',
      title: strings.columns.dataLevel,
      sorter: (a, b) => a.data_level.localeCompare(b.data_level),
      render: (_, subset) => levelLabel(dataset.task_type, subset.data_level),
    },
    {
      key: 'items',
      title: strings.columns.items,
      align: 'right',
      sorter: (a, b) => a.num_items - b.num_items,
      render: (_, subset) => subset.num_items.toLocaleString(),
    },
    {
      key: 'created',
      title: strings.columns.created,
      sorter: (a, b) => a.created - b.created,
      render: (_, subset) => <When ms={subset.created} now={now} />,
    },
    {
      key: 'updated',
      title: strings.columns.updated,
      sorter: (a, b) => a.updated - b.updated,
      render: (_, subset) => <When ms={subset.updated} now={now} />,
    },
    {
      key: 'performance',
      title: <Tooltip title={strings.performanceHelp}>{strings.columns.performance}</Tooltip>,
      align: 'center',
      sorter: (a, b) => Number(a.enabled_for_performance) - Number(b.enabled_for_performance),
      render: (_, subset) => (
        <DisabledTooltip reason={locked}>
          <Switch
            size="small"
            aria-label={strings.performanceToggle(subset.name)}
            checked={subset.enabled_for_performance}
            loading={toggling.has(subset.id)}
            disabled={locked !== null}
            onChange={(checked) => togglePerformance(subset, checked)}
          />
        </DisabledTooltip>
      ),
    },
    {
      key: 'actions',
      title: strings.columns.actions,
      align: 'right',
      render: (_, subset) => (
        <Flex gap={4} justify="flex-end">
          <DisabledTooltip reason={locked}>
            <Tooltip title={locked ? undefined : strings.edit}>
              <Button
                type="text"
                icon={<EditOutlined />}
                aria-label={`${strings.edit} ${subset.name}`}
                disabled={locked !== null}
                onClick={() => setEditing(subset)}
              />
            </Tooltip>
          </DisabledTooltip>
          <DisabledTooltip reason={locked}>
            <Tooltip title={locked ? undefined : strings.delete}>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={`${strings.delete} ${subset.name}`}
                disabled={locked !== null}
                onClick={() => confirmDelete(subset)}
              />
            </Tooltip>
          </DisabledTooltip>
        </Flex>
      ),
    },
  ];

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} align="center" wrap="wrap">
        <Input.Search
          allowClear
          placeholder={strings.search}
          aria-label={strings.search}
          value={search}
          onChange={(event) => {
            setSearch(event.target.value);
            setPage(1);
          }}
          style={{ maxWidth: 320 }}
        />
        <Typography.Text type="secondary" style={{ marginLeft: 'auto' }}>
          {strings.count(shown.length, subsets.length)}
        </Typography.Text>
      </Flex>
      <Table<Subset>
        rowKey="id"
        size="middle"
        columns={columns}
        dataSource={shown}
        data-testid="subsets-table"
        locale={{ emptyText: strings.noMatches(search.trim()) }}
        pagination={{
          current,
          pageSize,
          showSizeChanger: true,
          pageSizeOptions: PAGE_SIZE_OPTIONS,
          hideOnSinglePage: false,
          onChange: (nextPage, nextSize) => {
            if (nextSize !== pageSize) {
              setPageSize(nextSize);
              setPage(1);
            } else {
              setPage(nextPage);
            }
          },
        }}
      />
      <EditSubsetModal datasetId={dataset.id} subset={editing} onClose={() => setEditing(null)} />
    </Flex>
  );
}
