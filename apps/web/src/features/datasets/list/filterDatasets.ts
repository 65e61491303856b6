// The datasets list's search (name or description, case-insensitive) and task filter.
import type { Dataset, TaskType } from '@loupe/contracts';

export function filterDatasets(
  datasets: Dataset[],
  term: string,
  task: TaskType | undefined,
): Dataset[] {
  const needle = term.trim().toLowerCase();
  return datasets.filter(
    (dataset) =>
      (!task || dataset.task_type === task) &&
      (!needle ||
        dataset.name.toLowerCase().includes(needle) ||
        dataset.description.toLowerCase().includes(needle)),
  );
}
