// The column chooser of a performance table: a Metrics button opening a checklist of the table's
// metrics; the last checked one cannot be unchecked, so a table never goes empty.
import { SettingOutlined } from '@ant-design/icons';
import type { TaskType } from '@loupe/contracts';
import { metricTitle } from '@loupe/metrics';
import { Button, Checkbox, Flex, Popover } from 'antd';
import { performanceStrings as strings } from '../strings';

export interface MetricChooserProps {
  /** Names the chooser for assistive technology and tests (e.g. 'Statistics'). */
  label: string;
  task: TaskType;
  choices: readonly string[];
  visible: readonly string[];
  onChange(next: string[]): void;
}

export function MetricChooser({ label, task, choices, visible, onChange }: MetricChooserProps) {
  const content = (
    <Flex vertical gap={6} role="group" aria-label={`${label} ${strings.metrics}`}>
      {choices.map((id) => {
        const checked = visible.includes(id);
        return (
          <Checkbox
            key={id}
            checked={checked}
            disabled={checked && visible.length === 1}
            onChange={(event) =>
              onChange(
                event.target.checked ? [...visible, id] : visible.filter((other) => other !== id),
              )
            }
          >
            {metricTitle(task, id)}
          </Checkbox>
        );
      })}
    </Flex>
  );
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      title={strings.chooseMetrics}
      content={content}
    >
      <Button
        size="small"
        icon={<SettingOutlined />}
        aria-label={`${label}: ${strings.chooseMetrics}`}
      >
        {strings.metrics}
      </Button>
    </Popover>
  );
}
