// What the row checks of an upload need to know of a dataset: its task, classes, values and the
// types of the metadata fields uploads have introduced so far.
import type { DatasetShape } from '@loupe/contracts';
import type { DatasetRecord } from './datasets.repository.js';
import type { MetadataFieldsRepository } from './metadata-fields.repository.js';

export async function datasetShape(
  fields: Pick<MetadataFieldsRepository, 'list'>,
  dataset: DatasetRecord,
): Promise<DatasetShape> {
  const stored = await fields.list(dataset.id);
  return {
    task_type: dataset.task_type,
    class_names: dataset.class_names,
    closed_classes: dataset.closed_classes,
    value_names: dataset.value_names,
    metadata_types: new Map(
      stored.filter((f) => f.source === 'uploaded').map((f) => [f.name, f.type]),
    ),
  };
}
