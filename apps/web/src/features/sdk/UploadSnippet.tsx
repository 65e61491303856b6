// An upload snippet for one task type, with the way to the documentation of the others. With a
// dataset in context the snippet is that dataset's; without one, a task type selector chooses.
import type { TaskType } from '@loupe/contracts';
import { Flex, Select, Typography } from 'antd';
import { useState } from 'react';
import { TASK_TYPE_LABELS, TASK_TYPES } from '../../lib/taskTypes';
import { CodeBlock } from './CodeBlock';
import { SdkDocsLink } from './SdkDocs';
import {
  uploadDatasetSnippet,
  uploadPredictionsSnippet,
  type SnippetConnection,
  type SnippetDataset,
} from './sdkSnippets';
import { sdkStrings as strings } from './strings';

export interface UploadSnippetProps {
  /** Samples of a dataset, or a model's predictions. */
  kind: 'samples' | 'predictions';
  /** This instance's address and key in the snippet; null: what `loupe configure` saved. */
  connection: SnippetConnection | null;
  dataset?: SnippetDataset;
  copyLabel: string;
  testId?: string;
}

export function UploadSnippet({
  kind,
  connection,
  dataset,
  copyLabel,
  testId,
}: UploadSnippetProps) {
  const [task, setTask] = useState<TaskType>('classification');
  const code =
    kind === 'samples'
      ? uploadDatasetSnippet(connection, task, dataset)
      : uploadPredictionsSnippet(connection, task, dataset);
  return (
    <Flex vertical gap={8}>
      {!dataset && (
        <Flex align="center" gap={8}>
          <Typography.Text type="secondary">{strings.taskType}</Typography.Text>
          <Select<TaskType>
            aria-label={strings.taskType}
            value={task}
            onChange={setTask}
            options={TASK_TYPES.map((value) => ({ value, label: TASK_TYPE_LABELS[value] }))}
            style={{ width: 260 }}
            data-testid="snippet-task-type"
          />
        </Flex>
      )}
      <CodeBlock code={code} copyLabel={copyLabel} testId={testId} />
      <Flex align="center" gap={6} wrap>
        <Typography.Text type="secondary" style={{ fontSize: 13 }}>
          {dataset ? strings.otherTasks : strings.allFields}
        </Typography.Text>
        <SdkDocsLink section={kind === 'samples' ? 'upload_samples' : 'upload_predictions'} />
      </Flex>
    </Flex>
  );
}
