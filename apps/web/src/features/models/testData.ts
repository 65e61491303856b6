// Fixtures of the model pages' tests: a dataset, its model, and the fake server a signed-in user
// meets them through (routes of the page under test added).
import type { Dataset, PredictionSet } from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';

export const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
export const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

/** A classification dataset of 40 samples, 'Pets', unless changed. */
export function modelDataset(change: Partial<Dataset> = {}): Dataset {
  return {
    id: DATASET_ID,
    name: 'Pets',
    description: '',
    task_type: 'classification',
    issues_count: 0,
    samples_count: 40,
    views: [],
    class_names: ['cat', 'dog'],
    classes_count: 2,
    objects_count: 0,
    predictions_count: 1,
    updated_ts: 0,
    preview_urls: [],
    splits: ['train'],
    iou_threshold: 0.5,
    thumbnails_enabled: true,
    ...change,
  };
}

/** The dataset's model, predicting every sample. */
export function modelOf(dataset: Dataset, name: string): PredictionSet {
  return {
    id: MODEL_ID,
    name,
    added_at: Date.now(),
    num_present: dataset.samples_count ?? 0,
    num_missing: 0,
    dataset: { id: dataset.id, name: dataset.name, task_type: dataset.task_type },
  };
}

/** A signed-in admin (licensed unless said otherwise) whose instance holds the dataset and model. */
export function modelPagesServer(
  {
    dataset,
    model,
    licensed = true,
  }: { dataset: Dataset; model: PredictionSet; licensed?: boolean },
  routes: Record<string, Handler> = {},
) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'UNLICENSED', key: '', expiration_ts: 0 },
    }),
    'GET /api/datasets': () => ({ body: [dataset] }),
    [`GET /api/datasets/${dataset.id}`]: () => ({ body: dataset }),
    'GET /api/dataset/models': () => ({ body: [model] }),
    ...routes,
  });
}
