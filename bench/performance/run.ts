// Model performance benchmark (issue 17): three datasets with one prediction set each, generated
// by bulk SQL on SQLite and PostgreSQL (kept under .bench-data/performance/ and in the PostgreSQL
// schema loupe_bench_performance for the next run) and timed over HTTP against the real app with
// the typed client: the full report of a 1,000,000-sample classification (statistics polled from
// the first GET, which enqueues the job, until ready, then the per-class table), a metadata
// performance chart of 20 bins × 3 splits, the performance of a 10,000-item selection, the report
// of 5,000 detection images (36,000 boxes, 100,000 predictions) and of 100,000 speech utterances,
// with the server's memory sampled during the classification report and again over repeated
// reports. Every report is computed cold (the data version is bumped first, as an upload would).
// The server's numbers are checked against values derived here: accuracy counted by hand, mAP from
// @loupe/metrics' evaluateCoco and corpus WER from corpusWordErrors run directly on the same data.
// Prints figures, targets and ratios; never fails on time.
// To time the code as `npm start` runs it, build first (`npm run build`), leave out
// `--conditions=loupe-src` (the server's workspaces and worker threads then load their built .js,
// not TypeScript through tsx) and give Node the server's flags: NODE_OPTIONS=--max-semi-space-size=64.
//   npx tsx --expose-gc --conditions=loupe-src bench/performance/run.ts [--db sqlite|postgres|both]
//     [--samples N] [--images N] [--utterances N] [--runs N] [--regenerate] [--profile DIR]
//     [--only classification,memory,metadata,selection,detection,speech]
// --profile DIR writes a CPU profile of each timed report (server and client: one process).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  api,
  type ApiClient,
  type OverallPerformanceResponse,
  type StatisticsResponse,
} from '@loupe/contracts';
import {
  corpusWordErrors,
  evaluateCoco,
  type CocoAnnotation,
  type CocoDataset,
  type CocoDetection,
} from '@loupe/metrics';
import {
  BENCH_OPTIONS,
  ROOT,
  benchDatabase,
  benchPlace,
  bumpDataVersion,
  bumpSetVersion,
  databaseKinds,
  startInProcess,
  vacuumAnalyze,
  type InProcess,
} from '../support/in-process.js';
import {
  check,
  createTimer,
  gc,
  heapOf,
  line,
  loadavg,
  mb,
  median,
  memorySampler,
  sleep,
  untilIdle,
} from '../support/measure.js';
import {
  CLASSES,
  DETECTION_CLASSES,
  IMAGE_HEIGHT,
  IMAGE_WIDTH,
  NUMERIC_FIELD,
  SPLITS,
  classificationSpec,
  detectionSpec,
  generate,
  samplesOf,
  speechSpec,
  type Generated,
  type PerformanceSpec,
} from './data.js';

const FIGURES = [
  'classification',
  'memory',
  'metadata',
  'selection',
  'detection',
  'speech',
] as const;
type Figure = (typeof FIGURES)[number];

const { values } = parseArgs({
  options: {
    ...BENCH_OPTIONS,
    images: { type: 'string', default: '5000' },
    utterances: { type: 'string', default: '100000' },
    runs: { type: 'string', default: '9' },
    profile: { type: 'string' },
    only: { type: 'string' },
  },
});
/** --only a,b: run only those figures (all by default). */
const ONLY = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
for (const name of ONLY ?? [])
  if (!FIGURES.includes(name as Figure))
    throw new Error(`--only: unknown figure '${name}' (choose from ${FIGURES.join(', ')})`);
const want = (figure: Figure): boolean => ONLY === null || ONLY.has(figure);
const SAMPLES = Number(values.samples);
const IMAGES = Number(values.images);
const UTTERANCES = Number(values.utterances);
const RUNS = Number(values.runs);
const { dataDir: DATA_DIR, pgSchema: PG_SCHEMA } = benchPlace('performance');
/** Items of the selection whose performance is timed. */
const SELECTION = 10_000;
/** How often the bench asks for the statistics while they compute (a page asks every 2 s). */
const POLL_MS = 50;
/** A report not ready after this long is a broken run, not a slow one. */
const GIVE_UP_MS = 600_000;
/** Targets, ms. */
const TARGETS = {
  classificationReport: 2000,
  metadata: 1000,
  detectionReport: 3000,
  speechReport: 2000,
  selection: 300,
};

const { timed, setPrefix } = createTimer(values.profile);

interface Report {
  statistics: StatisticsResponse;
  overall: OverallPerformanceResponse;
  polls: number;
}

/** A statistic's value in a split of a ready report. */
function statistic(report: Report, metric: string, split: string): number | null {
  const found = report.statistics.statistics.find((s) => s.metric_name === metric);
  check(found !== undefined, `the statistics have no ${metric}`);
  const value = found!.values.find((v) => v.split_name === split);
  check(value !== undefined, `${metric} has no value for split ${split}`);
  return value!.value;
}

// ---- one database

async function bench(kind: 'sqlite' | 'postgres'): Promise<void> {
  setPrefix(kind);
  mkdirSync(DATA_DIR, { recursive: true });
  const database = await benchDatabase(kind, join(DATA_DIR, 'loupe.db'), PG_SCHEMA);
  const specs = {
    classification: classificationSpec(SAMPLES),
    detection: detectionSpec(IMAGES),
    speech: speechSpec(UTTERANCES),
  };
  const genStart = performance.now();
  const sets = {
    classification: await generate(database, specs.classification, values.regenerate ?? false),
    detection: await generate(database, specs.detection, values.regenerate ?? false),
    speech: await generate(database, specs.speech, values.regenerate ?? false),
  };
  const generated = Object.values(sets).some((s) => s.generated);
  console.log(
    `\n== ${kind}: classification ${SAMPLES.toLocaleString()} samples, detection ${IMAGES.toLocaleString()} images, speech ${UTTERANCES.toLocaleString()} utterances (data ${generated ? `generated in ${((performance.now() - genStart) / 1000).toFixed(0)} s` : 'reused'}; load ${loadavg()})`,
  );
  if (database.kind === 'postgres') {
    const seconds = await vacuumAnalyze(PG_SCHEMA, [
      'datasets',
      'jobs',
      'performance_results',
      'predictions',
      'predicted_objects',
    ]);
    console.log(`(vacuum analyze: ${seconds.toFixed(1)} s, not timed)`);
  }

  const app = await startInProcess(database, join(DATA_DIR, `server-${kind}`), { worker: true });
  try {
    // Reports stored by an earlier run would answer at once: a new data version (what an upload
    // does) makes every report of this run a cold one.
    for (const set of Object.values(sets)) await bumpDataVersion(app, set.datasetId);
    await untilIdle();
    if (want('classification') || want('memory') || want('metadata') || want('selection'))
      await classificationFigures(app, specs.classification, sets.classification);
    if (want('detection')) await detectionFigures(app, specs.detection, sets.detection);
    if (want('speech')) await speechFigures(app, specs.speech, sets.speech);
  } finally {
    await app.close();
  }
  console.log(`(load at the end: ${loadavg()})`);
}

/** The statistics from the first GET (which enqueues the job) until ready, then the table. */
async function fullReport(client: ApiClient, set: Generated): Promise<Report> {
  const params = { id: set.datasetId, predictionSetId: set.predictionSetId };
  const start = performance.now();
  for (let polls = 1; ; polls++) {
    const statistics = await client.call(api.performance.statistics, { params });
    if (statistics.status === 'ready') {
      const overall = await client.call(api.performance.overall, { params });
      check(
        overall.status === 'ready',
        `the per-${overall.primary_key} table is ${overall.status}`,
      );
      return { statistics, overall, polls };
    }
    if (statistics.status === 'failed') throw new Error(`the report failed: ${statistics.error}`);
    if (performance.now() - start > GIVE_UP_MS)
      throw new Error(`the report is still computing after ${GIVE_UP_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** The report's splits: 'all' first, then the dataset's, and the per-entity rows of each. */
function checkShape(report: Report, entities: number | null): void {
  const expected = ['all', ...[...SPLITS].sort()];
  check(
    JSON.stringify(report.statistics.splits) === JSON.stringify(expected),
    `splits ${report.statistics.splits.join(', ')}, expected ${expected.join(', ')}`,
  );
  check(report.overall.splits.length === expected.length, 'a per-entity table per split');
  if (entities !== null)
    check(
      report.overall.splits.every((s) => s.rows.length === entities),
      `${entities} rows per split`,
    );
}

// ---- classification: report, memory, metadata chart, selection

async function classificationFigures(
  app: InProcess,
  spec: PerformanceSpec,
  set: Generated,
): Promise<void> {
  const { client } = app;
  const params = { id: set.datasetId, predictionSetId: set.predictionSetId };
  // The truth, counted by hand: right predictions over samples, per split and overall.
  const right = new Uint8Array(spec.samples);
  const counts = new Map<string, { n: number; right: number }>([['all', { n: 0, right: 0 }]]);
  let missing = 0;
  let i = 0;
  for (const s of samplesOf(spec)) {
    const ok = s.prediction !== null && s.prediction.label === s.label;
    right[i++] = ok ? 1 : 0;
    if (!s.prediction) missing++;
    for (const key of ['all', s.split]) {
      const c = counts.get(key) ?? { n: 0, right: 0 };
      c.n++;
      c.right += ok ? 1 : 0;
      counts.set(key, c);
    }
  }
  const accuracy = (key: string) => counts.get(key)!.right / counts.get(key)!.n;

  if (want('classification')) {
    const memory = memorySampler();
    const report = await timed(() => fullReport(client, set), 'classification-report');
    const peak = memory.stop();
    checkShape(report.result, CLASSES.length);
    const { statistics } = report.result;
    check(statistics.num_items === spec.samples, `num_items ${statistics.num_items}`);
    check(statistics.num_missing === missing, `num_missing ${statistics.num_missing} ≠ ${missing}`);
    for (const split of counts.keys()) {
      const value = statistic(report.result, 'accuracy', split);
      check(
        value !== null && Math.abs(value - accuracy(split)) < 1e-12,
        `accuracy in ${split}: ${value}, counted ${accuracy(split)}`,
      );
    }
    line(
      `classification report, ${spec.samples.toLocaleString()} samples × 10 classes`,
      report,
      TARGETS.classificationReport,
      `${report.result.polls} polls; accuracy ${accuracy('all').toFixed(4)} = counted`,
    );
    console.log(
      `  memory during the report: peak RSS +${mb(peak.rss)} (from ${mb(peak.baseRss)}), heap+buffers +${mb(peak.heap)}, live after ${peak.fullGcs} full GCs +${mb(peak.live)}`,
    );
    await untilIdle();
  }

  if (want('memory')) {
    // The same report recomputed after new data versions: what stays after full collections.
    const retained: number[] = [];
    const rss: number[] = [];
    const times: number[] = [];
    for (let r = 0; r < 3; r++) {
      await bumpDataVersion(app, set.datasetId);
      const again = await timed(() => fullReport(client, set));
      times.push(again.ms);
      await untilIdle();
      gc();
      gc();
      const m = process.memoryUsage();
      retained.push(heapOf(m));
      rss.push(m.rss);
    }
    const growth = retained[2]! - retained[1]!;
    console.log(
      `  3 more reports (new data version each): ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}; heap+buffers after full GCs ${retained.map(mb).join(' → ')} (${Math.abs(growth) < 16 * 1024 * 1024 ? 'flat' : `grows ${mb(growth)}`}), RSS ${rss.map(mb).join(' → ')}`,
    );
    // As after an upload of the set's predictions: the set is read again, in a warm process.
    const uploaded: number[] = [];
    for (let r = 0; r < 2; r++) {
      await bumpSetVersion(app, set.datasetId, set.predictionSetId);
      uploaded.push((await timed(() => fullReport(client, set), `classification-upload-${r}`)).ms);
      await untilIdle();
    }
    console.log(
      `  2 reports after an upload of the set's predictions each (the set read again): ${uploaded.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}`,
    );
  }

  if (want('metadata')) {
    const chart = () =>
      client.call(api.performance.metadata, {
        params,
        body: { data_level: 'image', metadata_id: NUMERIC_FIELD, max_num_bins: 20 },
      });
    const first = await timed(chart, 'metadata-first');
    const bins = first.result.performance_per_bin;
    check(first.result.metadata_type === 'continuous', `a ${first.result.metadata_type} field`);
    check(bins.length === 20, `${bins.length} bins, not 20`);
    check(
      bins.every((b) => b.counts.length === SPLITS.length + 1),
      'each bin has a count per split and all',
    );
    // Per bin accuracy × count adds up to the right predictions: the overall accuracy.
    const accuracyOf = (b: (typeof bins)[number]) =>
      b.metrics
        .find((m) => m.metric_name === 'accuracy')
        ?.values.find((v) => v.split_name === 'all');
    let n = 0;
    let rightSum = 0;
    for (const b of bins) {
      const v = accuracyOf(b);
      check(v !== undefined, 'each bin has an accuracy in all');
      n += v!.count;
      rightSum += (v!.value ?? 0) * v!.count;
    }
    check(n === spec.samples, `the bins hold ${n} samples, not ${spec.samples}`);
    check(
      Math.abs(rightSum / n - accuracy('all')) < 1e-9,
      `the bins' accuracy adds up to ${rightSum / n}, not ${accuracy('all')}`,
    );
    const times: number[] = [];
    const cpus: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t = await timed(chart, r === 0 ? 'metadata' : undefined);
      times.push(t.ms);
      cpus.push(t.cpu);
    }
    const lowest = accuracyOf(bins[0]!)!.value!;
    const highest = accuracyOf(bins[bins.length - 1]!)!.value!;
    line(
      `metadata chart: ${NUMERIC_FIELD}, 20 bins × 3 splits (median of ${RUNS})`,
      { ms: median(times), cpu: median(cpus) },
      TARGETS.metadata,
      `first ${first.ms.toFixed(0)} ms (explorer table cold); accuracy ${lowest.toFixed(3)} → ${highest.toFixed(3)} across bins`,
    );
    await untilIdle();
  }

  if (want('selection')) {
    const step = Math.max(1, Math.floor(spec.samples / SELECTION));
    const chosen = Array.from({ length: Math.min(SELECTION, spec.samples) }, (_, k) => k * step);
    const ids = chosen.map((k) => `cls-${String(k).padStart(7, '0')}.jpg`);
    const expected = chosen.reduce((sum, k) => sum + right[k]!, 0) / chosen.length;
    const summary = () =>
      client.call(api.performance.itemsSummary, {
        params,
        body: { data_level: 'image', item_ids: ids },
      });
    const first = await timed(summary, 'selection-first');
    check(first.result.num_items === ids.length, `${first.result.num_items} items in the summary`);
    const value = first.result.metrics.find((m) => m.metric_name === 'accuracy')?.value;
    check(
      value !== undefined && value !== null && Math.abs(value - expected) < 1e-12,
      `selection accuracy ${value}, counted ${expected}`,
    );
    const times: number[] = [];
    const cpus: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t = await timed(summary, r === 0 ? 'selection' : undefined);
      times.push(t.ms);
      cpus.push(t.cpu);
    }
    line(
      `selection performance, ${ids.length.toLocaleString()} item ids (median of ${RUNS})`,
      { ms: median(times), cpu: median(cpus) },
      TARGETS.selection,
      `first ${first.ms.toFixed(0)} ms; accuracy ${expected.toFixed(4)} = counted`,
    );
    await untilIdle();
  }
}

// ---- detection: report, mAP against evaluateCoco run here (and pycocotools when installed)

async function detectionFigures(
  app: InProcess,
  spec: PerformanceSpec,
  set: Generated,
): Promise<void> {
  // The same COCO inputs the server builds: images by upload order, classes by index, boxes in
  // id order (generation order), annotation ids from 1.
  const images: CocoDataset['images'] = [];
  const annotations: CocoAnnotation[] = [];
  const detections: CocoDetection[] = [];
  const splitOfImage: string[] = [];
  let i = 0;
  for (const s of samplesOf(spec)) {
    images.push({ id: i, height: IMAGE_HEIGHT, width: IMAGE_WIDTH });
    splitOfImage.push(s.split);
    for (const o of s.objects)
      annotations.push({
        id: annotations.length + 1,
        image_id: i,
        category_id: DETECTION_CLASSES.indexOf(o.label),
        iscrowd: 0,
        bbox: [o.x, o.y, o.w, o.h],
        area: o.w * o.h,
      });
    for (const o of s.predictedObjects)
      detections.push({
        image_id: i,
        category_id: DETECTION_CLASSES.indexOf(o.label),
        score: o.score!,
        bbox: [o.x, o.y, o.w, o.h],
      });
    i++;
  }
  const categories = DETECTION_CLASSES.map((name, k) => ({ id: k, name }));

  const report = await timed(() => fullReport(app.client, set), 'detection-report');
  checkShape(report.result, DETECTION_CLASSES.length);
  const direct = await timed(async () =>
    evaluateCoco({ images, annotations, categories }, detections, 'bbox'),
  );
  const mAP = statistic(report.result, 'mAP_COCO', 'all');
  check(mAP === direct.result.stats[0], `mAP ${mAP}, evaluateCoco ${direct.result.stats[0]}`);
  const all = report.result.overall.splits.find((s) => s.split_name === 'all')!;
  DETECTION_CLASSES.forEach((name, k) => {
    const row = all.rows.find((r) => r.key === name);
    const expected = direct.result.perCategory[k]!.ap;
    check(
      row?.values.mAP_COCO === expected,
      `AP of ${name}: ${row?.values.mAP_COCO} ≠ ${expected}`,
    );
  });
  for (const split of SPLITS) {
    const inSplit = new Set(images.filter((_, j) => splitOfImage[j] === split).map((im) => im.id));
    const result = evaluateCoco(
      {
        images: images.filter((im) => inSplit.has(im.id)),
        annotations: annotations.filter((a) => inSplit.has(a.image_id)),
        categories,
      },
      detections.filter((d) => inSplit.has(d.image_id)),
      'bbox',
    );
    const value = statistic(report.result, 'mAP_COCO', split);
    check(value === result.stats[0], `mAP in ${split}: ${value}, evaluateCoco ${result.stats[0]}`);
  }
  line(
    `detection report, ${IMAGES.toLocaleString()} images, ${annotations.length.toLocaleString()} boxes, ${detections.length.toLocaleString()} predictions`,
    report,
    TARGETS.detectionReport,
    `${report.result.polls} polls; mAP ${mAP!.toFixed(4)} = evaluateCoco (all, per class, per split)`,
  );
  console.log(
    `  evaluateCoco run directly on the same data (all splits, default parameters): ${direct.ms.toFixed(0)} ms`,
  );
  pycocotools(images, annotations, categories, detections, mAP!);
  await untilIdle();
}

/** pycocotools' time on the same data, when it is installed (it is no dependency of Loupe). */
function pycocotools(
  images: CocoDataset['images'],
  annotations: CocoAnnotation[],
  categories: { id: number; name: string }[],
  detections: CocoDetection[],
  mAP: number,
): void {
  try {
    execFileSync('python3', ['-c', 'import pycocotools'], { stdio: 'ignore' });
  } catch {
    console.log('  pycocotools: not installed, skipped');
    return;
  }
  const gtPath = join(DATA_DIR, 'detection-gt.json');
  const dtPath = join(DATA_DIR, 'detection-dt.json');
  writeFileSync(gtPath, JSON.stringify({ images, annotations, categories }));
  writeFileSync(dtPath, JSON.stringify(detections));
  const out = JSON.parse(
    execFileSync(
      'python3',
      [join(ROOT, 'bench/metrics/pycocotools_reference.py'), gtPath, dtPath, 'bbox'],
      { encoding: 'utf8' },
    ),
  ) as { seconds: number; stats: number[] };
  console.log(
    `  pycocotools on the same data: ${(out.seconds * 1000).toFixed(0)} ms; AP ${out.stats[0]!.toFixed(6)} (server ${mAP.toFixed(6)})`,
  );
}

// ---- speech recognition: report, corpus WER against corpusWordErrors run here

async function speechFigures(app: InProcess, spec: PerformanceSpec, set: Generated): Promise<void> {
  const references: string[] = [];
  const hypotheses: string[] = [];
  const splits: string[] = [];
  for (const s of samplesOf(spec)) {
    const hypothesis = s.prediction?.transcript;
    if (s.transcript === null || hypothesis === null || hypothesis === undefined) continue;
    references.push(s.transcript);
    hypotheses.push(hypothesis);
    splits.push(s.split);
  }
  const report = await timed(() => fullReport(app.client, set), 'speech-report');
  checkShape(report.result, null);
  const direct = await timed(async () =>
    corpusWordErrors(references, hypotheses, { alignment: false }),
  );
  const wer = statistic(report.result, 'word_error_rate', 'all');
  check(
    wer === direct.result.corpus.wer,
    `WER ${wer}, corpusWordErrors ${direct.result.corpus.wer}`,
  );
  for (const split of SPLITS) {
    const keep = splits.map((s) => s === split);
    const expected = corpusWordErrors(
      references.filter((_, k) => keep[k]),
      hypotheses.filter((_, k) => keep[k]),
      { alignment: false },
    ).corpus.wer;
    const value = statistic(report.result, 'word_error_rate', split);
    check(value === expected, `WER in ${split}: ${value}, corpusWordErrors ${expected}`);
  }
  const words = report.result.overall.splits.find((s) => s.split_name === 'all')!.rows.length;
  line(
    `speech recognition report, ${spec.samples.toLocaleString()} utterances`,
    report,
    TARGETS.speechReport,
    `${report.result.polls} polls; WER ${wer!.toFixed(4)} = corpusWordErrors (all, per split); ${words} words`,
  );
  console.log(
    `  corpusWordErrors run directly on the same transcripts: ${direct.ms.toFixed(0)} ms`,
  );
  await untilIdle();
}

console.log(
  `Model performance benchmark — ${os.cpus().length} cores, load ${loadavg()}, node ${process.version}; server and client share one process (wall and CPU are of both)`,
);
for (const kind of databaseKinds(values.db)) await bench(kind);
