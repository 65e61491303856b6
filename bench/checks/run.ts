// Health-checks benchmark (issue 19): 1,000,000 images with default descriptors, 10 classes and one
// prediction set with probabilities (bench/checks/data.ts, planted problems of known count), on
// SQLite and PostgreSQL (kept under .bench-data/checks/ and in the PostgreSQL schema
// loupe_bench_checks for the next run), through the real app in this process with its job runner:
//   - the whole catalogue from `POST …/checks/run` until no check is computing, and each check's
//     own compute time as the job recorded it;
//   - what was found against what was planted (duplicates, leaked duplicates, near-duplicates,
//     label errors' precision and recall, dark images, outliers);
//   - the catalogue again after adding 1,000 items (a new data version), against the full run:
//     the costly searches keep their state (docs/health-checks.md, "Reruns after items are
//     added"), so only the added items are searched; the full run starts without kept state;
//   - the server's memory while the checks compute.
// Prints figures, targets and ratios; never fails on time.
//   npx tsx --expose-gc --conditions=loupe-src bench/checks/run.ts [--db sqlite|postgres|both]
//     [--samples N] [--added N] [--disable key,key] [--regenerate] [--profile DIR]
//     [--heap-snapshot MB]
// --profile DIR writes a CPU profile of the main thread (server and client) during the rerun.
// --heap-snapshot MB writes a heap snapshot of this process (server and client) to the data
// folder once its heap and buffers have grown MB over the start of the full run.
import v8 from 'node:v8';
import { mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { api, type ApiClient, type ChecksListResponse } from '@loupe/contracts';
import { openBulkWriter } from '../support/bulk-sql.js';
import {
  BENCH_OPTIONS,
  benchDatabase,
  benchPlace,
  bumpDataVersion,
  databaseKinds,
  startInProcess,
  vacuumAnalyze,
  type InProcess,
} from '../support/in-process.js';
import {
  childMemorySampler,
  createTimer,
  heapOf,
  loadavg,
  mb,
  memorySampler,
  sleep,
} from '../support/measure.js';

const line = (name: string, value: string) => console.log(`${name.padEnd(58)} ${value}`);
import {
  CLASSES,
  FEATURE,
  checkSamples,
  checksSpec,
  generateChecks,
  isDark,
  isExactCopy,
  isNearCopy,
  isOutlier,
  type ChecksSpec,
} from './data.js';

const { values } = parseArgs({
  options: {
    ...BENCH_OPTIONS,
    added: { type: 'string', default: '1000' },
    profile: { type: 'string' },
    'heap-snapshot': { type: 'string' },
    /** Check keys to disable for the run (comma-separated), e.g. label_errors_knn. */
    disable: { type: 'string', default: '' },
  },
});
const SAMPLES = Number(values.samples);
const ADDED = Number(values.added);
const DISABLED = values.disable
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
const { dataDir: DATA_DIR, pgSchema: PG_SCHEMA } = benchPlace('checks');
const POLL_MS = 250;
/** A catalogue still computing after this long is a broken run, not a slow one. */
const GIVE_UP_MS = 60 * 60_000;
/** Targets (s) per check key, from the issue. */
const TARGETS: Record<string, number> = {
  duplicate: 10,
  duplicate_leaked: 10,
  near_duplicate: 600,
  near_duplicate_leaked: 600,
  label_errors: 10,
  outlier: 300,
};

/** The checks list once nothing is computing. */
async function untilComputed(client: ApiClient, datasetId: string): Promise<ChecksListResponse> {
  const start = performance.now();
  for (;;) {
    const list = await client.call(api.healthChecks.list, { params: { id: datasetId }, query: {} });
    if (!list.checks.some((c) => c.status.type === 'pending_check')) return list;
    if (performance.now() - start > GIVE_UP_MS)
      throw new Error(`checks still computing after ${GIVE_UP_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

interface Timing {
  check_id: string;
  duration_ms: number;
  computed_at: number;
}

async function timings(app: InProcess, datasetId: string, since: number): Promise<Timing[]> {
  const rows = await app.database.db
    .selectFrom('health_check_results')
    .select(['check_id', 'duration_ms', 'computed_at'])
    .where('dataset_id', '=', datasetId)
    .execute();
  return rows
    .map((r) => ({
      check_id: r.check_id,
      duration_ms: Number(r.duration_ms),
      computed_at: Number(r.computed_at),
    }))
    .filter((r) => r.computed_at >= since);
}

/** The flagged ids of a check, from its evaluation's items evidence through the explorer. */
async function flaggedIds(
  client: ApiClient,
  datasetId: string,
  checkId: string,
  predictionsId: string | null,
): Promise<Set<string>> {
  const { check: overview } = await client.call(api.healthChecks.get, {
    params: { id: datasetId, checkId },
    query: {},
  });
  // A model check's fields are in the explorer's table of its prediction set.
  const answer = await client.call(api.explore.itemIds, {
    params: { id: datasetId },
    body: {
      data_level: overview.data_level,
      ...(overview.needs_predictions && predictionsId ? { predictions_id: predictionsId } : {}),
      filter: {
        type: 'boolean',
        metadata_id: `checks.${checkId}.failed`,
        op: 'bool_equals',
        value: true,
      },
      format: 'ids',
    },
  });
  return new Set(answer.item_ids ?? []);
}

/** What the generator planted, per check, recomputed from the seeded stream. */
function planted(spec: ChecksSpec) {
  const exact = new Set<string>();
  const exactLeaked = new Set<string>();
  const near = new Set<string>();
  const flipped = new Set<string>();
  const dark = new Set<string>();
  const outliers = new Set<string>();
  let previous: { id: string; split: string } | null = null;
  let i = 0;
  for (const s of checkSamples(spec)) {
    if (isExactCopy(i) && previous) {
      exact.add(s.id).add(previous.id);
      if (s.split !== previous.split) exactLeaked.add(s.id).add(previous.id);
    }
    // Exact copies are near-duplicates too.
    if ((isNearCopy(i) || isExactCopy(i)) && previous) near.add(s.id).add(previous.id);
    if (s.label !== s.truth) flipped.add(s.id);
    if (isDark(i)) dark.add(s.id);
    if (isOutlier(i)) outliers.add(s.id);
    previous = { id: s.id, split: s.split };
    i++;
  }
  return { exact, exactLeaked, near, flipped, dark, outliers };
}

function agreement(found: Set<string>, truth: Set<string>) {
  let hit = 0;
  for (const id of found) if (truth.has(id)) hit++;
  return {
    found: found.size,
    planted: truth.size,
    precision: found.size ? hit / found.size : 1,
    recall: truth.size ? hit / truth.size : 1,
  };
}

const pct = (v: number) => `${(100 * v).toFixed(1)} %`;

/** Adds `count` samples (with vectors and predictions) after the last one, as an upload would. */
async function addItems(
  app: InProcess,
  database: Parameters<typeof openBulkWriter>[0],
  datasetId: string,
  predictionSetId: string,
  count: number,
): Promise<void> {
  const bulk = await openBulkWriter(database);
  const now = Date.now();
  const [row] = await bulk.select<{ next: number }>(
    'select next_seq as next from datasets where id = ?',
    [datasetId],
  );
  const next = Number(row!.next);
  const extra = checksSpec(SAMPLES + count);
  let i = 0;
  const samples: unknown[][] = [];
  const vectors: unknown[][] = [];
  const predictions: unknown[][] = [];
  for (const s of checkSamples({ ...extra, seed: extra.seed + 1000 })) {
    if (i++ >= count) break;
    const id = `added-${next + i}-${s.id}`;
    samples.push([datasetId, id, next + i, 'image', null, s.split, CLASSES[s.label]!,
      JSON.stringify(s.computed), 1, 0, null, now, now]); // prettier-ignore
    vectors.push([datasetId, 'image', FEATURE, id, Buffer.from(s.vector.buffer)]);
    const top = s.probabilities.indexOf(Math.max(...s.probabilities));
    predictions.push([predictionSetId, id, next + i, CLASSES[top]!, s.probabilities[top]!,
      JSON.stringify(s.probabilities), now]); // prettier-ignore
  }
  await bulk.batch([
    {
      table: 'samples',
      columns: [
        ['dataset_id', 'text'], ['id', 'text'], ['seq', 'int4'], ['media_type', 'text'],
        ['media', 'text'], ['split', 'text'], ['label', 'text'], ['computed', 'text'],
        ['processed', 'int4'], ['deleted', 'int4'], ['created_record_id', 'text'],
        ['created_at', 'int8'], ['updated_at', 'int8'],
      ], // prettier-ignore
      rows: samples,
    },
    {
      table: 'feature_vectors',
      columns: [['dataset_id', 'text'], ['data_level', 'text'], ['feature_name', 'text'],
        ['item_id', 'text'], ['vector', 'bytea']], // prettier-ignore
      rows: vectors,
    },
    {
      table: 'predictions',
      columns: [['prediction_set_id', 'text'], ['sample_id', 'text'], ['sample_seq', 'int4'],
        ['label', 'text'], ['score', 'float8'], ['probabilities', 'text'],
        ['created_at', 'int8']], // prettier-ignore
      rows: predictions,
    },
  ]);
  await bulk.run(
    'update datasets set next_seq = next_seq + ?, samples_count = samples_count + ? where id = ?',
    [count + 1, count, datasetId],
  );
  await bulk.close();
  await bumpDataVersion(app, datasetId);
}

async function runOn(kind: 'sqlite' | 'postgres'): Promise<void> {
  mkdirSync(DATA_DIR, { recursive: true });
  const database = await benchDatabase(kind, join(DATA_DIR, 'checks.sqlite'), PG_SCHEMA);
  const spec = checksSpec(SAMPLES);
  const started = performance.now();
  const generated = await generateChecks(database, spec, values.regenerate);
  console.log(
    `\n## ${kind}: ${SAMPLES.toLocaleString('en')} images, ${CLASSES.length} classes, ${generated.generated ? `generated in ${((performance.now() - started) / 1000).toFixed(0)} s` : 'reused'}`,
  );
  // Jobs an interrupted run left behind (of any size) would start before this run's settings
  // are in place, and compete with it.
  const bulk = await openBulkWriter(database);
  await bulk.run("delete from jobs where status in ('queued', 'running')", []);
  // The items an earlier run added (drawn with another seed, so far from the classes' clusters:
  // outliers, and problems of their own) go, so the full run finds what was planted.
  const { datasetId: id, predictionSetId: setId } = generated;
  const [row] = await bulk.select<{ added: number }>(
    "select count(*) as added from samples where dataset_id = ? and id like 'added-%'",
    [id],
  );
  const added = Number(row?.added ?? 0);
  if (added > 0) {
    await bulk.run("delete from feature_vectors where dataset_id = ? and item_id like 'added-%'", [
      id,
    ]);
    await bulk.run(
      "delete from predictions where prediction_set_id = ? and sample_id like 'added-%'",
      [setId],
    );
    await bulk.run("delete from samples where dataset_id = ? and id like 'added-%'", [id]);
    await bulk.run(
      'update datasets set samples_count = samples_count - ?, data_version = data_version + 1 where id = ?',
      [added, id],
    );
    console.log(`(${added} items an earlier run added removed)`);
  }
  await bulk.close();
  if (kind === 'postgres')
    await vacuumAnalyze(PG_SCHEMA, ['samples', 'feature_vectors', 'predictions']);
  // The full run starts without the search state an earlier run kept.
  rmSync(join(DATA_DIR, `app-${kind}`, 'check-state'), { recursive: true, force: true });
  const app = await startInProcess(database, join(DATA_DIR, `app-${kind}`), { worker: true });
  try {
    const { datasetId, predictionSetId } = generated;
    // A check an earlier run disabled is enabled again unless this run disables it too.
    const before = await app.client.call(api.healthChecks.list, {
      params: { id: datasetId },
      query: {},
    });
    for (const c of before.checks)
      if (c.status.type === 'disabled_check' && !DISABLED.includes(c.key))
        await app.client.call(api.healthChecks.settings, {
          params: { id: datasetId, checkId: c.id },
          body: { enabled: true },
        });
    for (const key of DISABLED) {
      await app.client.call(api.healthChecks.settings, {
        params: { id: datasetId, checkId: `${key}.image` },
        body: { enabled: false },
      });
      console.log(`${key}.image disabled for this run`);
    }
    // Results of an earlier run are kept while their inputs stay the same: this run computes all.
    await app.database.db
      .deleteFrom('health_check_results')
      .where('dataset_id', '=', datasetId)
      .execute();
    const memory = memorySampler();
    const children = childMemorySampler();
    const snapshot = heapSnapshotAt(Number(values['heap-snapshot'] ?? 0), kind);
    const since = Date.now();
    const start = performance.now();
    await app.client.call(api.healthChecks.run, { params: { id: datasetId } });
    const list = await untilComputed(app.client, datasetId);
    const full = (performance.now() - start) / 1000;
    const peak = memory.stop();
    snapshot.stop();
    const tree = children.stop();
    console.log(`load average ${loadavg()}, ${os.cpus().length} cores`);
    line('whole catalogue (run → nothing computing)', `${full.toFixed(1)} s`);
    line('server memory peak (RSS above the start)', mb(peak.rss));
    line(
      '  of it heap + buffers at peak; live after full collections',
      `${mb(peak.heap)}; ${mb(peak.live)} (${peak.fullGcs} full GCs)`,
    );
    line('checks process memory peak (RSS)', mb(tree.children));
    line('server and checks process together, peak (RSS)', mb(tree.total));
    const byId = new Map((await timings(app, datasetId, since)).map((t) => [t.check_id, t]));
    for (const c of list.checks) {
      const t = byId.get(c.id);
      const target = TARGETS[c.key];
      const seconds = t ? t.duration_ms / 1000 : NaN;
      line(
        `  ${c.id} (${c.status.type})`,
        `${seconds.toFixed(2)} s${target ? `  target ${target} s  ratio ${(target / seconds).toFixed(2)}` : ''}`,
      );
    }

    const truth = planted(spec);
    const quality: [string, string, Set<string>][] = [
      ['duplicate.image', 'exact duplicates', truth.exact],
      ['duplicate_leaked.image', 'leaked duplicates', truth.exactLeaked],
      ['near_duplicate.image', 'near-duplicates (incl. exact)', truth.near],
      ['label_errors.image', 'label errors (5 % flipped)', truth.flipped],
      ['dark.image', 'too dark', truth.dark],
      ['outlier.image', 'outliers', truth.outliers],
    ];
    for (const [checkId, what, planted] of quality) {
      if (!list.checks.some((c) => c.id === checkId)) {
        line(`  ${what}`, 'check not offered');
        continue;
      }
      const a = agreement(
        await flaggedIds(app.client, datasetId, checkId, list.predictions_id),
        planted,
      );
      line(
        `  ${what}`,
        `found ${a.found}, planted ${a.planted}, precision ${pct(a.precision)}, recall ${pct(a.recall)}`,
      );
    }

    await addItems(app, database, datasetId, predictionSetId, ADDED);
    const since2 = Date.now();
    const { timed, setPrefix } = createTimer(values.profile);
    setPrefix(kind);
    const rerunTimed = await timed(async () => {
      await app.client.call(api.healthChecks.run, { params: { id: datasetId } });
      await untilComputed(app.client, datasetId);
    }, 'rerun');
    const again = rerunTimed.ms / 1000;
    const rerun = await timings(app, datasetId, since2);
    console.log(`load average ${loadavg()}`);
    line(
      `after adding ${ADDED} items`,
      `${again.toFixed(1)} s, ${(rerunTimed.cpu / 1000).toFixed(1)} s of CPU in this process (${pct(again / full)} of the full run; ${rerun.length} checks recomputed)`,
    );
    for (const t of rerun)
      line(
        `  ${t.check_id}`,
        `${(t.duration_ms / 1000).toFixed(2)} s (full run ${((byId.get(t.check_id)?.duration_ms ?? NaN) / 1000).toFixed(2)} s)`,
      );
  } finally {
    await app.close();
  }
}

for (const kind of databaseKinds(values.db)) await runOn(kind);

/** Writes one heap snapshot once heap and buffers grow `mb` over now (0: none); stop() ends the watch. */
function heapSnapshotAt(mb: number, kind: string): { stop(): void } {
  if (!(mb > 0)) return { stop() {} };
  const at = heapOf(process.memoryUsage()) + mb * 1024 * 1024;
  const timer = setInterval(() => {
    if (heapOf(process.memoryUsage()) < at) return;
    clearInterval(timer);
    const file = v8.writeHeapSnapshot(join(DATA_DIR, `${kind}-checks.heapsnapshot`));
    console.log(`heap snapshot: ${file}`);
  }, 200);
  return { stop: () => clearInterval(timer) };
}
