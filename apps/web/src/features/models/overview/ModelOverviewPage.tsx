// The model overview (docs/product.md, Models §2): the model's name, task type, completeness and
// upload time, the dataset's classes, a headline of its statistics linking to the Performance
// page, and the Suggestions sidebar on the right (below the rest on narrow screens).
import { ClockCircleOutlined } from '@ant-design/icons';
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { Card, Flex, Progress, Tooltip, Typography } from 'antd';
import { Link } from 'react-router';
import { TaskTag } from '../../../components/TaskTag';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { completeness } from '../completeness';
import { ModelPageFrame } from '../ModelPageFrame';
import { ClassesList } from './ClassesList';
import { StatisticsHeadline } from './StatisticsHeadline';
import { overviewStrings as strings } from './strings';
import { SuggestionsSidebar } from './SuggestionsSidebar';

const SIDEBAR_WIDTH = 320;

export function ModelOverviewPage() {
  return (
    <ModelPageFrame
      title={strings.overview}
      testId="model-overview"
      loadFailedTitle={strings.loadFailed}
    >
      {({ dataset, model }) => <ModelOverview dataset={dataset} model={model} />}
    </ModelPageFrame>
  );
}

/** What the overview lists as the dataset's classes: value names for regression, none for speech. */
function classList(dataset: Dataset): { title: string; names: string[] } | null {
  if (dataset.task_type === 'regression') {
    const names = dataset.regression_value_names ?? [];
    return names.length > 0 ? { title: strings.values, names } : null;
  }
  return dataset.class_names.length > 0
    ? { title: strings.classes, names: dataset.class_names }
    : null;
}

function ModelOverview({ dataset, model }: { dataset: Dataset; model: PredictionSet }) {
  const total = model.num_present + model.num_missing;
  const classes = classList(dataset);
  return (
    <Flex gap={24} align="flex-start" wrap="wrap">
      <Flex vertical gap={24} style={{ flex: 1, minWidth: 480 }}>
        <Flex vertical gap={6}>
          <div>
            <TaskTag task={dataset.task_type} />
          </div>
          <Typography.Title level={2} style={{ margin: 0 }} data-testid="model-name">
            {model.name}
          </Typography.Title>
          <Typography.Text type="secondary">
            {strings.dataset}:{' '}
            <Link to={`/datasets/${encodeURIComponent(dataset.id)}/overview`}>{dataset.name}</Link>
          </Typography.Text>
          <Tooltip title={new Date(model.added_at).toLocaleString()}>
            <Typography.Text
              type="secondary"
              data-testid="model-uploaded"
              style={{ width: 'fit-content' }}
            >
              <ClockCircleOutlined /> {strings.uploaded(formatRelativeTime(model.added_at))}
            </Typography.Text>
          </Tooltip>
        </Flex>
        <Card size="small" title={strings.completeness}>
          <Flex vertical gap={4} data-testid="model-completeness">
            <Progress
              percent={Math.round(completeness(model) * 100)}
              style={{ margin: 0, maxWidth: 480 }}
            />
            <Typography.Text type="secondary">
              {strings.predicted(model.num_present, total)}
            </Typography.Text>
          </Flex>
        </Card>
        <StatisticsHeadline
          datasetId={dataset.id}
          predictionSetId={model.id}
          task={dataset.task_type}
          hasPredictions={model.num_present > 0}
        />
        {classes && <ClassesList title={classes.title} names={classes.names} />}
      </Flex>
      <aside
        style={{ width: SIDEBAR_WIDTH, flexShrink: 0, position: 'sticky', top: 104 }}
        aria-label={strings.suggestions}
      >
        <SuggestionsSidebar />
      </aside>
    </Flex>
  );
}
