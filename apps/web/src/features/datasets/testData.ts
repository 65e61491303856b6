// Datasets and prediction sets as the server answers them, for this feature's tests.
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { datasetFixture } from '../../test/fixtures';

export const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    name: 'street-scenes',
    description: 'Dashcam frames from three cities.',
    task_type: 'object_detection',
    samples_count: 120,
    class_names: ['car', 'person'],
    objects_count: 340,
    predictions_count: 2,
    updated_ts: Math.floor(Date.now() / 1000) - 3600,
    preview_urls: ['/api/a.webp', '/api/b.webp', '/api/c.webp', '/api/d.webp'],
    ...change,
  });
}

export function predictionSet(change: Partial<PredictionSet> = {}): PredictionSet {
  return {
    id: '9d0e8f5a-1111-4a2b-8c3d-444455556666',
    name: 'yolo-v8',
    added_at: Date.now() - 60_000,
    num_missing: 0,
    num_present: 120,
    dataset: { id: DATASET_ID, name: 'street-scenes', task_type: 'object_detection' },
    ...change,
  };
}
