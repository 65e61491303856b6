// Health checks behind the fake API, for this feature's tests: a classification dataset with one
// prediction set, checks built from small parts, and a server whose list and check answers come
// from a mutable store (so enabling, ignoring and configuring show up on the next read).
import type {
  CheckResponse,
  CheckStatus,
  ChecksListResponse,
  Dataset,
  Evaluation,
  ExploreItem,
  HealthCheckOverview,
  ItemsRequest,
  PredictionSet,
} from '@loupe/contracts';
import { passingPercentage } from '@loupe/contracts';
import { adminUser, appState, fakeServer, type Handler } from '../../test/fakeServer';
import { datasetFixture } from '../../test/fixtures';

export const DATASET_ID = '7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
export const MODEL_ID = '0b1c2d3e-4f5a-4b6c-9d7e-8f9a0b1c2d3e';
export const api = `/api/datasets/${DATASET_ID}`;
export const listPath = `/datasets/${DATASET_ID}/checks`;
export const checkPath = (id: string) => `${listPath}/${id}`;

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    samples_count: 10,
    predictions_count: 1,
    ...change,
  });
}

export const model: PredictionSet = {
  id: MODEL_ID,
  name: 'resnet',
  num_present: 10,
  num_missing: 0,
  added_at: Date.UTC(2026, 0, 5),
  dataset: { id: DATASET_ID, name: 'pets', task_type: 'classification' },
};

export const failed = (summary = 'Found 3 items'): CheckStatus => ({
  type: 'failed_check',
  is_approximate: false,
  checked_items_summary: {
    data_level: 'image',
    predictions_id: null,
    num_items_failed: 3,
    num_items_checked: 10,
    num_items_ignored: 0,
    num_items_total: 10,
  },
  evidence_summary: summary,
  computed_at: 1,
});
export const passed = (checked: number | null = 10): CheckStatus => ({
  type: 'passed_check',
  is_approximate: false,
  checked_items_summary:
    checked === null
      ? null
      : {
          data_level: 'image',
          predictions_id: null,
          num_items_failed: 0,
          num_items_checked: checked,
          num_items_ignored: 0,
          num_items_total: checked,
        },
  computed_at: 1,
});

export function check(id: string, change: Partial<HealthCheckOverview> = {}): HealthCheckOverview {
  return {
    id,
    key: id.split('.')[0]!,
    name: id,
    group: 'Data Leakage & Duplicates',
    description: [`Finds ${id}.`],
    type: 'default',
    data_level: 'image',
    needs_predictions: false,
    config: { description: '', params: {} },
    status: passed(),
    fields: [],
    ...change,
  };
}

export function itemsEvaluation(checkId: string, change: Partial<Evaluation> = {}): Evaluation {
  return {
    type: 'fail',
    evaluation_id: 'e1',
    history: { data_version: 1, computed_at: 1 },
    evidence: [
      {
        type: 'items',
        title: 'Duplicated items',
        num_items: 3,
        items_preview_config: {
          data_level: 'image',
          filter: {
            type: 'boolean',
            metadata_id: `checks.${checkId}.failed`,
            op: 'bool_equals',
            value: true,
          },
          sort_by: [{ name: `checks.${checkId}.group`, direction: 'ascending' }],
          visible_metadata_ids: ['split'],
        },
      },
    ],
    recommendation: {
      type: 'actions',
      actions: [
        {
          type: 'delete',
          suggestions: [{ id: 's1', name: 'group 1', item_ids: ['img-2', 'img-3'] }],
        },
      ],
    },
    ...change,
  };
}

export function item(id: string): ExploreItem {
  return {
    id,
    row: Number(id.replace(/\D/g, '')) || 0,
    data_level: 'image',
    sample_id: id,
    type: 'gt',
    media_type: 'image',
    src: `/media/${id}.png`,
    thumbnail_src: `/thumbs/${id}.webp`,
    spectrogram_src: null,
    width: 64,
    height: 64,
    duration: null,
    crop: null,
    split: 'train',
    label: 'cat',
    labels: null,
    values: null,
    transcript: null,
    mask_src: null,
    prediction: null,
    objects: [],
    metadata: {},
  };
}

export interface ChecksServerOptions {
  checks?: HealthCheckOverview[];
  evaluations?: Record<string, Evaluation | null>;
  /** The item ids of the explorer's item_ids call, by the JSON of its filter (default: none). */
  itemIds?: (filter: unknown) => string[];
  licensed?: boolean;
  models?: PredictionSet[];
  routes?: Record<string, Handler>;
  /** Whether the list answers that a checks job is queued or running (default: no). */
  computing?: () => boolean;
}

export function listAnswer(checks: HealthCheckOverview[], computing = false): ChecksListResponse {
  const statuses = checks.map((c) => c.status.type);
  return {
    checks,
    predictions_id: null,
    summary: {
      num_failed: statuses.filter((s) => s === 'failed_check').length,
      num_passed: statuses.filter((s) => s === 'passed_check').length,
      num_pending: statuses.filter((s) => s === 'pending_check').length,
      num_enabled: statuses.filter((s) => s !== 'disabled_check').length,
      passing_percentage: passingPercentage(statuses),
    },
    computing,
  };
}

/** The fake API with these checks; `store` is the checks by id, changed by settings. */
export function checksServer(options: ChecksServerOptions = {}) {
  const {
    checks = [],
    evaluations = {},
    itemIds = () => [],
    licensed = true,
    computing = () => false,
  } = options;
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  const store = new Map(checks.map((c) => [c.id, c]));
  const server = fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: licensed
        ? { state: 'LICENSED', key: 'k', expiration_ts: 2e9 }
        : { state: 'EXPIRED', key: 'k', expiration_ts: 1 },
    }),
    'GET /api/datasets': () => ({ body: [dataset()] }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    'GET /api/dataset/models': () => ({ body: options.models ?? [] }),
    [`GET ${api}/checks`]: () => ({ body: listAnswer([...store.values()], computing()) }),
    [`POST ${api}/item_ids`]: (call) => {
      const ids = itemIds((call.body as { filter: unknown }).filter);
      return { body: { total: ids.length, num_items: 10, version: 1, item_ids: ids } };
    },
    [`POST ${api}/items`]: (call) => {
      const body = call.body as ItemsRequest;
      return { body: { items: (body.item_ids ?? []).map(item), version: 1 } };
    },
    'PUT /api/actions': () => ({ body: { dataset_id: DATASET_ID, results: [], history: [] } }),
    ...Object.fromEntries(
      checks.flatMap((c): [string, Handler][] => [
        [
          `GET ${api}/checks/${c.id}`,
          () => {
            const found = store.get(c.id);
            if (!found) return { status: 404, body: { description: 'No check', retriable: false } };
            const answer: CheckResponse = { check: found, evaluation: evaluations[c.id] ?? null };
            return { body: answer };
          },
        ],
        [
          `PUT ${api}/checks/settings/${c.id}`,
          (call) => {
            const enabled = (call.body as { enabled: boolean }).enabled;
            store.set(c.id, {
              ...store.get(c.id)!,
              status: enabled ? passed() : { type: 'disabled_check' },
            });
            return { body: { ok: true } };
          },
        ],
        [`PUT ${api}/checks/${c.id}`, () => ({ body: { ok: true } })],
        [`DELETE ${api}/checks/${c.id}`, () => ({ body: { ok: true } })],
      ]),
    ),
    ...options.routes,
  });
  return { ...server, store };
}
