// Enqueues the health checks job for a dataset's data as it is now (docs/health-checks.md, "Only
// what changed reruns"): after the metadata pass, applied edits, new prediction sets and features,
// and changed check settings. Waiting jobs of the same data version coalesce.
import type { DatasetRecord, DatasetsRepository } from '../datasets/datasets.repository.js';
import type { JobsService } from '../jobs/jobs.service.js';
import type { Actor } from '../users/actor.js';

/** The checks job's payload for a dataset's data as it is now (its dedupe key names the version). */
export function checksJobPayload(dataset: Pick<DatasetRecord, 'id' | 'data_version'>) {
  return { dataset_id: dataset.id, data_version: dataset.data_version };
}

export async function enqueueChecks(
  jobs: Pick<JobsService, 'enqueue'>,
  datasets: Pick<DatasetsRepository, 'find'>,
  datasetId: string,
  actor: Actor,
): Promise<void> {
  const dataset = await datasets.find(datasetId);
  if (!dataset) return;
  await jobs.enqueue('QualityScoresComputation', checksJobPayload(dataset), actor);
}
