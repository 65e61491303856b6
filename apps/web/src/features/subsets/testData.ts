// A dataset with subsets behind the fake API, for this feature's tests: the subsets list and one
// subset read from a mutable store, so updates and deletes show up on the next read.
import type {
  Dataset,
  ExploreItem,
  ItemsRequest,
  PredictionSet,
  Subset,
  SubsetDetail,
  UpdateSubsetRequest,
} from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { datasetFixture } from '../../test/fixtures';

export const DATASET_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const MODEL_ID = '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
export const api = `/api/datasets/${DATASET_ID}`;
export const SUBSET_A = '1a000000-0000-4000-8000-000000000001';

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    name: 'harbour-cams',
    task_type: 'object_detection',
    samples_count: 300,
    class_names: ['boat', 'buoy'],
    objects_count: 900,
    predictions_count: 1,
    ...change,
  });
}

export const model: PredictionSet = {
  id: MODEL_ID,
  name: 'yolo-v9',
  num_present: 300,
  num_missing: 0,
  added_at: Date.UTC(2026, 0, 5),
  dataset: { id: DATASET_ID, name: 'harbour-cams', task_type: 'object_detection' },
};

const DAY = 24 * 3600 * 1000;
const NOW = Date.UTC(2026, 5, 1);

/** Subset number `n` (1-based): ids and names sort with the number; item counts descend. */
export function subset(n: number, change: Partial<SubsetDetail> = {}): SubsetDetail {
  const id = `1a000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  const numItems = change.sample_ids?.length ?? 100 - n;
  return {
    id,
    name: `subset-${String(n).padStart(2, '0')}`,
    description: null,
    dataset_id: DATASET_ID,
    data_level: 'image',
    num_items: numItems,
    enabled_for_performance: false,
    created: NOW - n * DAY,
    updated: NOW - n * DAY,
    sample_ids: Array.from({ length: numItems }, (_, i) => `img-${i}`),
    ...change,
  };
}

export function item(id: string, level: ExploreItem['data_level'] = 'image'): ExploreItem {
  const sampleId = id.split('#')[0]!;
  return {
    id,
    row: Number(sampleId.replace(/\D/g, '')) || 0,
    data_level: level,
    sample_id: sampleId,
    type: 'gt',
    media_type: 'image',
    src: `/media/${sampleId}.png`,
    thumbnail_src: `/thumbs/${sampleId}.webp`,
    spectrogram_src: null,
    width: 640,
    height: 480,
    duration: null,
    crop: level === 'image_object' ? [0.1, 0.1, 0.5, 0.5] : null,
    split: 'train',
    label: 'boat',
    labels: null,
    values: null,
    transcript: null,
    mask_src: null,
    prediction: null,
    objects: [],
    metadata: {},
  };
}

const listed = ({ sample_ids: _ids, ...rest }: SubsetDetail): Subset => rest;

/**
 * The fake API with these subsets: list, get, update (names must stay unique: 409) and delete
 * change the store. `licensed: false` answers an expired license.
 */
export function subsetsServer({
  subsets = [],
  routes = {},
  licensed = true,
  datasetChange = {},
}: {
  subsets?: SubsetDetail[];
  routes?: Record<string, Handler>;
  licensed?: boolean;
  datasetChange?: Partial<Dataset>;
} = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  const store = new Map(subsets.map((s) => [s.id, s]));
  const one = (path: string) => store.get(path.split('/')[5] ?? '');
  const notFound = { status: 404, body: { description: 'Subset not found', retriable: false } };
  const server = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'EXPIRED', key: 'k', expiration_ts: 1 },
    }),
    'GET /api/datasets': () => ({ body: [dataset(datasetChange)] }),
    [`GET ${api}`]: () => ({ body: dataset(datasetChange) }),
    'GET /api/dataset/models': () => ({ body: [model] }),
    [`GET ${api}/history`]: () => ({ body: [] }),
    [`GET ${api}/subsets`]: () => ({ body: [...store.values()].map(listed) }),
    [`POST ${api}/items`]: (call) => {
      const body = call.body as ItemsRequest;
      return {
        body: { items: (body.item_ids ?? []).map((id) => item(id, body.data_level)), version: 1 },
      };
    },
    ...Object.fromEntries(
      subsets.flatMap((s): [string, Handler][] => [
        [
          `GET ${api}/subsets/${s.id}`,
          (call) => {
            const found = one(call.path);
            return found ? { body: found } : notFound;
          },
        ],
        [
          `PUT ${api}/subsets/${s.id}`,
          (call) => {
            const found = one(call.path);
            if (!found) return notFound;
            const change = call.body as UpdateSubsetRequest;
            if (
              change.name !== undefined &&
              [...store.values()].some(
                (other) => other.id !== found.id && other.name === change.name,
              )
            ) {
              return {
                status: 409,
                body: { description: 'Subset with that name already exists.', retriable: false },
              };
            }
            const removed = new Set(change.removed_item_ids ?? []);
            const sampleIds = found.sample_ids.filter((id) => !removed.has(id));
            const next: SubsetDetail = {
              ...found,
              ...(change.name !== undefined ? { name: change.name } : {}),
              ...(change.description !== undefined ? { description: change.description } : {}),
              ...(change.enabled_for_performance !== undefined
                ? { enabled_for_performance: change.enabled_for_performance }
                : {}),
              sample_ids: sampleIds,
              num_items: sampleIds.length,
            };
            store.set(found.id, next);
            return { body: listed(next) };
          },
        ],
        [
          `DELETE ${api}/subsets/${s.id}`,
          (call) => {
            if (!one(call.path)) return notFound;
            store.delete(s.id);
            return { body: { ok: true } };
          },
        ],
      ]),
    ),
    ...routes,
  });
  return { ...server, store };
}
