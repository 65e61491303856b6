// A small explorer behind the fake API for this feature's tests: a detection dataset whose
// items have a width, a label, a split and a free-text note; item_rows (item_ids) answers
// filters on width and sorts by width, like the server's query engine, as encoded rows (ids).
import {
  encodeIndices,
  NUM_ITEMS_HEADER,
  type Dataset,
  type ExploreItem,
  type Filter,
  type HistoryRecord,
  type ItemIdsRequest,
  type ItemRowsRequest,
  type ItemsRequest,
  type MetadataFieldInfo,
  type PredictionSet,
} from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { datasetFixture } from '../../test/fixtures';

export const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
export const api = `/api/datasets/${DATASET_ID}`;
export const explorePath = `/datasets/${DATASET_ID}/explore`;
export const MODEL_ID = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';
/** The explorer of the dataset's model. */
export const modelExplorePath = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/explore`;

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    name: 'street-scenes',
    task_type: 'object_detection',
    samples_count: 12,
    class_names: ['car', 'person'],
    objects_count: 20,
    ...change,
  });
}

const field = (change: Partial<MetadataFieldInfo> & { id: string }): MetadataFieldInfo => ({
  name: change.id,
  label: change.id,
  description: '',
  group: 'Uploaded',
  source: 'uploaded',
  state: 'available',
  type: 'string',
  ...change,
});

export const FIELDS: MetadataFieldInfo[] = [
  field({
    id: 'label',
    label: 'Label',
    group: 'Card config',
    source: 'builtin',
    options: { allowed_values: ['car', 'person'] },
  }),
  field({
    id: 'split',
    label: 'Split',
    group: 'Card config',
    source: 'builtin',
    options: { allowed_values: ['train', 'test'] },
  }),
  field({ id: 'width', label: 'Width', type: 'numeric', options: { min: 10.123, max: 120.456 } }),
  field({ id: 'note', label: 'Note' }),
  field({ id: 'blur', label: 'Blur', type: 'numeric', state: 'pending', source: 'computed' }),
];

export function item(index: number, level: 'image' | 'image_object' = 'image'): ExploreItem {
  return {
    id: level === 'image' ? `img-${index}` : `img-${index}#0`,
    row: index,
    data_level: level,
    sample_id: `img-${index}`,
    type: 'gt',
    media_type: 'image',
    src: `/media/${index}.png`,
    thumbnail_src: `/thumbs/${index}.webp`,
    spectrogram_src: null,
    width: 640,
    height: 480,
    duration: null,
    crop: level === 'image' ? null : [0.1, 0.1, 0.5, 0.5],
    split: index % 2 ? 'test' : 'train',
    label: index % 3 ? 'car' : 'person',
    labels: null,
    values: null,
    transcript: null,
    mask_src: null,
    prediction: null,
    objects: [
      { id: `img-${index}#0`, label: 'car', type: 'gt', coords: [0.1, 0.1, 0.5, 0.5] },
      // The second item also has an object with a COCO RLE mask: column 10, rows 20–49.
      ...(index === 1
        ? [
            {
              id: 'img-1#1',
              label: 'person',
              type: 'gt' as const,
              coords: [20 / 480, 10 / 640, 50 / 480, 11 / 640] as [number, number, number, number],
              mask: { size: [480, 640] as [number, number], counts: [4820, 30, 302350] },
            },
          ]
        : []),
    ],
    metadata: { width: 10.123 + index * 10, note: `note ${index}` },
  };
}

function query(body: ItemRowsRequest, count: number): number[] {
  let rows = Array.from({ length: count }, (_, i) => i);
  const children =
    (body.filter as Extract<Filter, { type: 'and' }> | null | undefined)?.children ?? [];
  for (const child of children) {
    if (child.type === 'numeric') {
      const [lo, hi] = child.value;
      rows = rows.filter((row) => {
        const width = item(row).metadata.width as number;
        return (lo === null || width >= lo) && (hi === null || width <= hi);
      });
    }
  }
  const sort = body.sort?.[0];
  if (sort?.name === 'width' && sort.direction === 'descending') rows.reverse();
  return rows;
}

export const HISTORY: HistoryRecord[] = [
  {
    id: 'h-create',
    timestamp: Date.UTC(2026, 0, 2),
    num_items: 12,
    data_level: 'image',
    operation_type: 'sample:create',
    user_name: 'Ana',
    restorable: false,
    restored_by: null,
    items_deleted: false,
  },
  {
    id: 'h-delete',
    timestamp: Date.UTC(2026, 0, 3),
    num_items: 1,
    data_level: 'image',
    operation_type: 'sample:delete',
    user_name: 'Ana',
    restorable: true,
    restored_by: null,
    items_deleted: true,
  },
  {
    id: 'h-object',
    timestamp: Date.UTC(2026, 0, 4),
    num_items: 2,
    data_level: 'image_object',
    operation_type: 'object.label:edit',
    user_name: 'Ben',
    restorable: false,
    restored_by: null,
    items_deleted: false,
  },
];

/** The dataset's model (GET /api/dataset/models), predicting all 12 items. */
export function exploreModel(): PredictionSet {
  return {
    id: MODEL_ID,
    name: 'YOLO v8',
    added_at: Date.UTC(2026, 10, 1),
    num_missing: 0,
    num_present: 12,
    dataset: dataset(),
  } as PredictionSet;
}

export function exploreServer({
  count = 12,
  routes = {},
}: { count?: number; routes?: Record<string, Handler> } = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [dataset()] }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    [`GET ${api}/history`]: () => ({ body: HISTORY }),
    [`GET ${api}/color_map`]: () => ({
      body: { color_map: { car: '#1677ff', person: '#fa541c' } },
    }),
    [`GET ${api}/metadata_info`]: () => ({ body: { metadata_config: FIELDS } }),
    // The result as ids (the web app asks for them as ids only).
    [`POST ${api}/item_ids`]: (call) => {
      const body = call.body as ItemIdsRequest;
      const level = body.data_level === 'image_object' ? 'image_object' : 'image';
      const ids = query(body, count).map((row) => item(row, level).id);
      return { body: { total: ids.length, num_items: count, version: 7, item_ids: ids } };
    },
    // The grid's result: the same rows as bytes.
    [`POST ${api}/item_rows`]: (call) => {
      const rows = query(call.body as ItemRowsRequest, count);
      const bytes = encodeIndices(Uint32Array.from(rows), { version: 7 });
      return { bytes, headers: { [NUM_ITEMS_HEADER]: String(count) } };
    },
    [`POST ${api}/items`]: (call) => {
      const body = call.body as ItemsRequest;
      const level = body.data_level === 'image_object' ? 'image_object' : 'image';
      const rows = body.rows ?? (body.item_ids ?? []).map((id) => Number(/\d+/.exec(id)![0]));
      return { body: { version: 7, items: rows.map((row) => item(row, level)) } };
    },
    ...routes,
  });
}
