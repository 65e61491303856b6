// The datasets list, the default landing page: search, task filter, cards, and the Add Dataset
// modal (docs/product.md, Datasets §2). `?instructions` (Getting started → Add dataset) opens the modal.
import { PlusOutlined } from '@ant-design/icons';
import type { TaskType } from '@loupe/contracts';
import { Button, Col, Empty, Flex, Row, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { ALL_TASKS, SearchAndTaskFilter } from '../../components/SearchAndTaskFilter';
import { emitTestEvent } from '../../lib/testEvents';
import { TASK_TYPE_LABELS } from '../../lib/taskTypes';
import { useDatasets } from './hooks/useDatasets';
import { AddDatasetModal } from './list/AddDatasetModal';
import { DatasetCard, DatasetCardPlaceholder } from './list/DatasetCard';
import { filterDatasets } from './list/filterDatasets';
import { datasetStrings as strings } from './strings';

const PLACEHOLDER_CARDS = 4;
const ALL = ALL_TASKS;

export function DatasetsPage() {
  const [params, setParams] = useSearchParams();
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
  const taskFilter = task === ALL ? undefined : task;
  const visible = useMemo(
    () => filterDatasets(datasets.data ?? [], term, taskFilter),
    [datasets.data, term, taskFilter],
  );
  const now = datasets.dataUpdatedAt || Date.now();

  useEffect(() => {
    if (datasets.isSuccess) emitTestEvent({ type: 'datasets:rendered', count: visible.length });
  }, [datasets.isSuccess, visible.length]);

  const empty = (datasets.data ?? []).length === 0;
  return (
    <Page
      title={strings.datasets}
      testId="datasets"
      tools={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
          {strings.addDataset}
        </Button>
      }
    >
      <SearchAndTaskFilter
        id="datasets"
        term={term}
        onTermChange={setTerm}
        task={task}
        onTaskChange={(value) => setTask(value as TaskType | typeof ALL)}
        searchPlaceholder={strings.searchPlaceholder}
        taskFilterLabel={strings.taskFilter}
        allTasksLabel={strings.allTasks}
      />
      {datasets.isPending ? (
        <Row gutter={[16, 16]}>
          {Array.from({ length: PLACEHOLDER_CARDS }, (_, index) => (
            <Col key={index} xs={24} md={12} xl={8} xxl={6}>
              <DatasetCardPlaceholder />
            </Col>
          ))}
        </Row>
      ) : datasets.isError ? (
        <ErrorFallback
          title={strings.loadFailed}
          error={datasets.error}
          onRetry={() => void datasets.refetch()}
        />
      ) : visible.length === 0 ? (
        <Empty
          style={{ marginTop: 48 }}
          description={
            empty ? (
              <Flex vertical gap={4}>
                <Typography.Text strong>{strings.noDatasets}</Typography.Text>
                <Typography.Text type="secondary">{strings.noDatasetsHint}</Typography.Text>
              </Flex>
            ) : (
              <Typography.Text>
                {strings.noMatches(taskFilter && TASK_TYPE_LABELS[taskFilter], term.trim())}
              </Typography.Text>
            )
          }
        >
          {empty && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAddOpen(true)}>
              {strings.addDataset}
            </Button>
          )}
        </Empty>
      ) : (
        <Row gutter={[16, 16]}>
          {visible.map((dataset) => (
            <Col key={dataset.id} xs={24} md={12} xl={8} xxl={6}>
              <DatasetCard dataset={dataset} now={now} />
            </Col>
          ))}
        </Row>
      )}
      <AddDatasetModal open={addOpen} onClose={() => setAddOpen(false)} />
    </Page>
  );
}
