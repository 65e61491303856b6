// The models list (docs/product.md, Models §2): prediction sets grouped by dataset, 'Search models', a
// task filter and the Add Model modal. `?instructions` (Getting started → Add model) opens it.
import { PlusOutlined, SwapOutlined } from '@ant-design/icons';
import type { PredictionSet, TaskType } from '@loupe/contracts';
import { Button, Card, Empty, Flex, Progress, Table, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DelayedLoading } from '../../components/DelayedLoading';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { ALL_TASKS, SearchAndTaskFilter } from '../../components/SearchAndTaskFilter';
import { TaskTag } from '../../components/TaskTag';
import { formatRelativeTime } from '../../lib/relativeTime';
import { TASK_TYPE_LABELS } from '../../lib/taskTypes';
import { PreviewImage, useDatasets } from '../datasets';
import { AddModelModal } from './AddModelModal';
import { completeness } from './completeness';
import { useModels } from './hooks/useModels';
import { modelStrings as strings } from './strings';

const ALL = ALL_TASKS;

const modelPath = (model: PredictionSet, section = 'overview') =>
  `/models/datasets/${encodeURIComponent(model.dataset.id)}/predictions/${encodeURIComponent(model.id)}/${section}`;

export function ModelsPage() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const models = useModels();
  const datasets = useDatasets();
  const [term, setTerm] = useState('');
  const [task, setTask] = useState<TaskType | typeof ALL>(ALL);
  const addOpen = params.has('instructions');
  const setAddOpen = (open: boolean) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (open) next.set('instructions', '1');
        else next.delete('instructions');
        return next;
      },
      { replace: true },
    );

  const groups = useMemo(() => {
    const needle = term.trim().toLowerCase();
    const byDataset = new Map<string, PredictionSet[]>();
    for (const model of models.data ?? []) {
      if (task !== ALL && model.dataset.task_type !== task) continue;
      if (needle && !model.name.toLowerCase().includes(needle)) continue;
      byDataset.set(model.dataset.id, [...(byDataset.get(model.dataset.id) ?? []), model]);
    }
    return [...byDataset.values()];
  }, [models.data, term, task]);
  const previews = new Map((datasets.data ?? []).map((d) => [d.id, d.preview_urls.slice(0, 3)]));
  const now = models.dataUpdatedAt || Date.now();
  const empty = (models.data ?? []).length === 0;

  return (
    <Page
      title={strings.models}
      testId="models"
      tools={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
          {strings.addModel}
        </Button>
      }
    >
      <SearchAndTaskFilter
        id="models"
        term={term}
        onTermChange={setTerm}
        task={task}
        onTaskChange={(value) => setTask(value as TaskType | typeof ALL)}
        searchPlaceholder={strings.search}
        taskFilterLabel={strings.taskFilter}
        allTasksLabel={strings.allTasks}
      />
      {models.isPending ? (
        <DelayedLoading />
      ) : models.isError ? (
        <ErrorFallback
          title={strings.loadFailed}
          error={models.error}
          onRetry={() => void models.refetch()}
        />
      ) : groups.length === 0 ? (
        <Empty
          style={{ marginTop: 48 }}
          description={
            empty || (!term.trim() && task === ALL)
              ? strings.noModels
              : strings.noMatches(task === ALL ? undefined : TASK_TYPE_LABELS[task], term.trim())
          }
        />
      ) : (
        <Flex vertical gap={16}>
          {groups.map((group) => {
            const dataset = group[0]!.dataset;
            const images = previews.get(dataset.id) ?? [];
            return (
              <Card
                key={dataset.id}
                size="small"
                data-testid="model-group"
                title={
                  <Flex align="center" gap={12}>
                    <Link to={`/datasets/${encodeURIComponent(dataset.id)}/overview`}>
                      {dataset.name}
                    </Link>
                    <TaskTag task={dataset.task_type} />
                  </Flex>
                }
                extra={
                  group.length > 1 && (
                    <Button
                      size="small"
                      icon={<SwapOutlined />}
                      onClick={() => void navigate(modelPath(group[0]!, 'compare'))}
                    >
                      {strings.compare}
                    </Button>
                  )
                }
              >
                <Flex gap={16} align="flex-start">
                  {images.length > 0 && (
                    <Flex gap={4} style={{ width: 240, flexShrink: 0 }}>
                      {images.map((url) => (
                        <PreviewImage key={url} src={url} style={{ flex: 1, height: 72 }} />
                      ))}
                    </Flex>
                  )}
                  <Table<PredictionSet>
                    style={{ flex: 1, minWidth: 0 }}
                    size="small"
                    rowKey="id"
                    dataSource={group}
                    pagination={false}
                    onRow={(model) => ({
                      onClick: () => void navigate(modelPath(model)),
                      style: { cursor: 'pointer' },
                    })}
                    columns={[
                      {
                        key: 'name',
                        title: strings.columns.model,
                        sorter: (a, b) => a.name.localeCompare(b.name),
                        render: (_value, model) => (
                          <Link to={modelPath(model)} onClick={(event) => event.stopPropagation()}>
                            {model.name}
                          </Link>
                        ),
                      },
                      {
                        key: 'completeness',
                        title: strings.columns.completeness,
                        width: 200,
                        sorter: (a, b) => completeness(a) - completeness(b),
                        render: (_value, model) => (
                          <Progress
                            percent={Math.round(completeness(model) * 100)}
                            size="small"
                            style={{ margin: 0 }}
                          />
                        ),
                      },
                      {
                        key: 'uploaded',
                        title: strings.columns.uploaded,
                        width: 160,
                        defaultSortOrder: 'descend',
                        sorter: (a, b) => a.added_at - b.added_at,
                        render: (_value, model) => (
                          <Typography.Text
                            type="secondary"
                            title={new Date(model.added_at).toLocaleString()}
                          >
                            {formatRelativeTime(model.added_at, now)}
                          </Typography.Text>
                        ),
                      },
                    ]}
                  />
                </Flex>
              </Card>
            );
          })}
        </Flex>
      )}
      <AddModelModal open={addOpen} onClose={() => setAddOpen(false)} />
    </Page>
  );
}
