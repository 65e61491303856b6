// The toolbar of the datasets and models lists: a search box and a task-type filter.
import { SearchOutlined } from '@ant-design/icons';
import { Flex, Input, Select } from 'antd';
import { TASK_TYPE_LABELS, TASK_TYPES } from '../lib/taskTypes';

/** The filter value that shows every task type. */
export const ALL_TASKS = 'all';

export function SearchAndTaskFilter({
  id,
  term,
  onTermChange,
  task,
  onTaskChange,
  searchPlaceholder,
  taskFilterLabel,
  allTasksLabel,
}: {
  /** Prefix of the controls' ids (antd needs explicit ids to tell two Selects apart in tests). */
  id: string;
  term: string;
  onTermChange: (term: string) => void;
  task: string;
  onTaskChange: (task: string) => void;
  searchPlaceholder: string;
  taskFilterLabel: string;
  allTasksLabel: string;
}) {
  return (
    <Flex gap={12} wrap style={{ marginBottom: 20 }}>
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={searchPlaceholder}
        aria-label={searchPlaceholder}
        value={term}
        onChange={(event) => onTermChange(event.target.value)}
        style={{ width: 320 }}
      />
      <Select
        id={`${id}-task-filter`}
        aria-label={taskFilterLabel}
        value={task}
        onChange={onTaskChange}
        style={{ width: 240 }}
        options={[
          { value: ALL_TASKS, label: allTasksLabel },
          ...TASK_TYPES.map((value) => ({ value, label: TASK_TYPE_LABELS[value] })),
        ]}
      />
    </Flex>
  );
}
