// Comparison benchmark (issue 18): the model performance benchmark's three datasets with two
// prediction sets each (bench/comparison/data.ts), on SQLite and PostgreSQL (kept under
// .bench-data/comparison/ and in the PostgreSQL schema loupe_bench_comparison for the next run),
// timed over HTTP against the real app with the typed client: the whole comparison of two models
// — POST from the first call (which enqueues the job) until ready — for 1,000,000 classification
// samples × 10 classes, 5,000 detection images (36,000 boxes, 100,000 predictions per model, with
// the item-level subcategories) and 100,000 utterances. Each is timed cold (a new data version, as
// an upload makes: both models' evaluation data are loaded again) and warm (another metric on the
// same data: the evaluations are in the server's cache), with the server's memory sampled during
// the cold classification comparison and after repeated ones. The server's numbers are checked
// against values derived here: accuracies and per-sample categories counted by hand, mAP from
// @loupe/metrics' evaluateCoco and corpus WER from corpusWordErrors run directly on the same data.
// Prints figures, targets and ratios; never fails on time.
// To time the code as `npm start` runs it, build first (`npm run build`), leave out
// `--conditions=loupe-src` (the server's workspaces and worker threads then load their built .js,
// not TypeScript through tsx) and give Node the server's flags: NODE_OPTIONS=--max-semi-space-size=64.
//   npx tsx --expose-gc --conditions=loupe-src bench/comparison/run.ts [--db sqlite|postgres|both]
//     [--samples N] [--images N] [--utterances N] [--regenerate] [--profile DIR]
//     [--only classification,memory,detection,speech]
import { mkdirSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  api,
  type ApiClient,
  type ComparisonRequest,
  type ComparisonResponse,
  type ComparisonSection,
} from '@loupe/contracts';
import {
  corpusWordErrors,
  evaluateCoco,
  type CocoAnnotation,
  type CocoDetection,
} from '@loupe/metrics';
import {
  BENCH_OPTIONS,
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
  memorySampler,
  sleep,
  untilIdle,
} from '../support/measure.js';
import {
  DETECTION_CLASSES,
  IMAGE_HEIGHT,
  IMAGE_WIDTH,
  classificationSpec,
  detectionSpec,
  generate,
  speechSpec,
  type PerformanceSpec,
} from '../performance/data.js';
import { generateSecond, secondPredictions } from './data.js';

const FIGURES = ['classification', 'memory', 'detection', 'speech'] as const;
type Figure = (typeof FIGURES)[number];

const { values } = parseArgs({
  options: {
    ...BENCH_OPTIONS,
    images: { type: 'string', default: '5000' },
    utterances: { type: 'string', default: '100000' },
    profile: { type: 'string' },
    only: { type: 'string' },
  },
});
const ONLY = values.only ? new Set(values.only.split(',').map((s) => s.trim())) : null;
for (const name of ONLY ?? [])
  if (!FIGURES.includes(name as Figure))
    throw new Error(`--only: unknown figure '${name}' (choose from ${FIGURES.join(', ')})`);
const want = (figure: Figure): boolean => ONLY === null || ONLY.has(figure);
const SAMPLES = Number(values.samples);
const IMAGES = Number(values.images);
const UTTERANCES = Number(values.utterances);
const { dataDir: DATA_DIR, pgSchema: PG_SCHEMA } = benchPlace('comparison');
/** How often the bench asks while the comparison computes (the page asks every 2 s). */
const POLL_MS = 50;
/** A comparison not ready after this long is a broken run, not a slow one. */
const GIVE_UP_MS = 600_000;
/** Targets, ms: the whole comparison. */
const TARGETS = { classification: 3000, detection: 5000, speech: 3000 };

const { timed, setPrefix } = createTimer(values.profile);

interface Pair {
  datasetId: string;
  a: string;
  b: string;
}

interface Compared {
  response: ComparisonResponse;
  polls: number;
}

/** The comparison from the first POST (which enqueues the job) until ready. */
async function compare(
  client: ApiClient,
  pair: Pair,
  body: Partial<ComparisonRequest> = {},
): Promise<Compared> {
  const start = performance.now();
  for (let polls = 1; ; polls++) {
    const response = await client.call(api.comparison.compare, {
      params: { id: pair.datasetId },
      body: { predictions_id_a: pair.a, predictions_id_b: pair.b, ...body },
    });
    if (response.status === 'ready') return { response, polls };
    if (response.status === 'failed') throw new Error(`the comparison failed: ${response.error}`);
    if (performance.now() - start > GIVE_UP_MS)
      throw new Error(`the comparison is still computing after ${GIVE_UP_MS / 1000} s`);
    await sleep(POLL_MS);
  }
}

/** Category counts of a section add up to its items; its subcategories too (object sections). */
function checkSection(section: ComparisonSection | null, items: number, what: string): void {
  check(section !== null, `${what}: no section`);
  const s = section!;
  check(s.num_items === items, `${what}: ${s.num_items} items, expected ${items}`);
  const categories =
    s.model_a_is_better.num_items +
    s.both_are_problematic.num_items +
    s.both_are_neutral.num_items +
    s.model_b_is_better.num_items;
  check(categories === items, `${what}: categories count ${categories} of ${items}`);
  const subcategories = Object.values(s.subcategories).reduce((n, c) => n + c!.num_items, 0);
  check(
    Object.keys(s.subcategories).length === 0 || subcategories === items,
    `${what}: subcategories count ${subcategories} of ${items}`,
  );
}

const value = (r: ComparisonResponse, metric: string, side: 'model_a' | 'model_b') =>
  r.overall[metric]?.[side] ?? null;

// ---- classification

async function classificationFigures(app: InProcess, spec: PerformanceSpec, pair: Pair) {
  // Counted by hand: each model's right predictions, and the samples each alone got right.
  let n = 0;
  let rightA = 0;
  let rightB = 0;
  let onlyA = 0;
  let onlyB = 0;
  let both = 0;
  for (const [s, b] of secondPredictions(spec)) {
    n++;
    const a = s.prediction !== null && s.prediction.label === s.label;
    const okB = b.prediction !== null && b.prediction.label === s.label;
    rightA += a ? 1 : 0;
    rightB += okB ? 1 : 0;
    if (a && okB) both++;
    else if (a) onlyA++;
    else if (okB) onlyB++;
  }
  const verify = (r: ComparisonResponse) => {
    const accuracyA = value(r, 'accuracy', 'model_a');
    const accuracyB = value(r, 'accuracy', 'model_b');
    check(Math.abs(accuracyA! - rightA / n) < 1e-12, `accuracy A ${accuracyA} ≠ ${rightA / n}`);
    check(Math.abs(accuracyB! - rightB / n) < 1e-12, `accuracy B ${accuracyB} ≠ ${rightB / n}`);
    checkSection(r.per_sample, n, 'per sample');
    check(r.per_sample!.model_a_is_better.num_items === onlyA, 'A-only right = model A is better');
    check(r.per_sample!.model_b_is_better.num_items === onlyB, 'B-only right = model B is better');
    check(r.per_sample!.both_are_neutral.num_items === both, 'both right = both are correct');
    check(r.per_class !== null && r.per_class.num_entities === spec.classes.length, 'per class');
  };
  const label = `classification, ${spec.samples.toLocaleString()} samples × ${spec.classes.length} classes`;
  if (want('classification')) {
    await bumpDataVersion(app, pair.datasetId);
    const memory = memorySampler();
    const cold = await timed(
      () => compare(app.client, pair, { metric: 'macro_f1_score' }),
      'classification-cold',
    );
    const peak = memory.stop();
    verify(cold.result.response);
    line(`${label}, cold`, cold, TARGETS.classification, `${cold.result.polls} polls; checked`);
    console.log(
      `  memory during the comparison: peak RSS +${mb(peak.rss)} (from ${mb(peak.baseRss)}), heap+buffers +${mb(peak.heap)}, live after ${peak.fullGcs} full GCs +${mb(peak.live)}`,
    );
    const warm = await timed(
      () => compare(app.client, pair, { metric: 'macro_precision' }),
      'classification-warm',
    );
    verify(warm.result.response);
    line(
      `${label}, warm (another metric)`,
      warm,
      TARGETS.classification,
      `${warm.result.polls} polls`,
    );
    const split = await timed(() =>
      compare(app.client, pair, { metric: 'accuracy', split: 'val' }),
    );
    line(`${label}, warm (split val)`, split, TARGETS.classification);
    await untilIdle();
  }
  if (want('memory')) {
    const retained: number[] = [];
    const times: number[] = [];
    for (let r = 0; r < 3; r++) {
      await bumpDataVersion(app, pair.datasetId);
      const again = await timed(() => compare(app.client, pair, { metric: 'macro_f1_score' }));
      times.push(again.ms);
      await untilIdle();
      gc();
      gc();
      retained.push(heapOf(process.memoryUsage()));
    }
    const growth = retained[2]! - retained[1]!;
    console.log(
      `  3 more cold comparisons: ${times.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}; heap+buffers after full GCs ${retained.map(mb).join(' → ')} (${Math.abs(growth) < 16 * 1024 * 1024 ? 'flat' : `grows ${mb(growth)}`})`,
    );
    // As after an upload of both sets' predictions: both are read again, in a warm process.
    const uploaded: number[] = [];
    for (let r = 0; r < 2; r++) {
      await bumpSetVersion(app, pair.datasetId, pair.a);
      await bumpSetVersion(app, pair.datasetId, pair.b);
      const again = await timed(
        () => compare(app.client, pair, { metric: 'macro_f1_score' }),
        `classification-upload-${r}`,
      );
      verify(again.result.response);
      uploaded.push(again.ms);
      await untilIdle();
    }
    console.log(
      `  2 comparisons after an upload of both sets' predictions each (both read again): ${uploaded.map((t) => `${(t / 1000).toFixed(2)} s`).join(', ')}`,
    );
  }
}

// ---- detection

async function detectionFigures(app: InProcess, spec: PerformanceSpec, pair: Pair) {
  const images: { id: number; height: number; width: number }[] = [];
  const annotations: CocoAnnotation[] = [];
  const detections: [CocoDetection[], CocoDetection[]] = [[], []];
  let i = 0;
  for (const [s, b] of secondPredictions(spec)) {
    images.push({ id: i, height: IMAGE_HEIGHT, width: IMAGE_WIDTH });
    for (const o of s.objects)
      annotations.push({
        id: annotations.length + 1,
        image_id: i,
        category_id: DETECTION_CLASSES.indexOf(o.label),
        iscrowd: 0,
        bbox: [o.x, o.y, o.w, o.h],
        area: o.w * o.h,
      });
    for (const [side, boxes] of [
      [0, s.predictedObjects],
      [1, b.predictedObjects],
    ] as const)
      for (const o of boxes)
        detections[side].push({
          image_id: i,
          category_id: DETECTION_CLASSES.indexOf(o.label),
          bbox: [o.x, o.y, o.w, o.h],
          score: o.score!,
        });
    i++;
  }
  const categories = DETECTION_CLASSES.map((name, id) => ({ id, name }));
  const mAP = detections.map(
    (d) => evaluateCoco({ images, annotations, categories }, d, 'bbox').stats[0]!,
  );
  const verify = (r: ComparisonResponse) => {
    check(
      value(r, 'mAP_COCO', 'model_a') === mAP[0],
      `mAP A ${value(r, 'mAP_COCO', 'model_a')} ≠ ${mAP[0]}`,
    );
    check(
      value(r, 'mAP_COCO', 'model_b') === mAP[1],
      `mAP B ${value(r, 'mAP_COCO', 'model_b')} ≠ ${mAP[1]}`,
    );
    checkSection(r.per_object_gt, annotations.length, 'ground-truth objects');
    check(r.per_object_pred !== null, 'predicted objects section');
    checkSection(r.per_object_pred, r.per_object_pred!.num_items, 'predicted objects');
    check(
      Object.keys(r.per_object_gt!.subcategories).length === 4,
      'four ground-truth subcategories',
    );
    check(
      Object.keys(r.per_object_pred!.subcategories).length === 7 ||
        Object.keys(r.per_object_pred!.subcategories).length === 8,
      'prediction subcategories',
    );
  };
  const label = `detection, ${IMAGES.toLocaleString()} images, ${annotations.length.toLocaleString()} boxes, ${detections[0].length.toLocaleString()}+${detections[1].length.toLocaleString()} predictions`;
  await bumpDataVersion(app, pair.datasetId);
  const cold = await timed(
    () => compare(app.client, pair, { metric: 'mAP_COCO' }),
    'detection-cold',
  );
  verify(cold.result.response);
  line(
    `${label}, cold`,
    cold,
    TARGETS.detection,
    `${cold.result.polls} polls; mAP A ${mAP[0]!.toFixed(4)}, B ${mAP[1]!.toFixed(4)} = evaluateCoco`,
  );
  const warm = await timed(
    () => compare(app.client, pair, { metric: 'f1_score' }),
    'detection-warm',
  );
  verify(warm.result.response);
  line(`${label}, warm (another metric)`, warm, TARGETS.detection, `${warm.result.polls} polls`);
  await untilIdle();
}

// ---- speech recognition

async function speechFigures(app: InProcess, spec: PerformanceSpec, pair: Pair) {
  const references: string[] = [];
  const hypotheses: [string[], string[]] = [[], []];
  for (const [s, b] of secondPredictions(spec)) {
    references.push(s.transcript!);
    hypotheses[0].push(s.prediction!.transcript!);
    hypotheses[1].push(b.prediction!.transcript!);
  }
  const wer = hypotheses.map(
    (h) => corpusWordErrors(references, h, { alignment: false }).corpus.wer,
  );
  const verify = (r: ComparisonResponse) => {
    check(
      value(r, 'word_error_rate', 'model_a') === wer[0],
      `WER A ${value(r, 'word_error_rate', 'model_a')} ≠ ${wer[0]}`,
    );
    check(
      value(r, 'word_error_rate', 'model_b') === wer[1],
      `WER B ${value(r, 'word_error_rate', 'model_b')} ≠ ${wer[1]}`,
    );
    checkSection(r.per_sample, references.length, 'per utterance');
    check(r.per_word !== null && r.per_word.num_entities > 0, 'per word');
  };
  const label = `speech recognition, ${spec.samples.toLocaleString()} utterances`;
  await bumpDataVersion(app, pair.datasetId);
  const cold = await timed(
    () => compare(app.client, pair, { metric: 'word_error_rate' }),
    'speech-cold',
  );
  verify(cold.result.response);
  line(
    `${label}, cold`,
    cold,
    TARGETS.speech,
    `${cold.result.polls} polls; WER A ${wer[0]!.toFixed(4)}, B ${wer[1]!.toFixed(4)} = corpusWordErrors`,
  );
  const warm = await timed(
    () => compare(app.client, pair, { metric: 'match_error_rate' }),
    'speech-warm',
  );
  verify(warm.result.response);
  line(`${label}, warm (another metric)`, warm, TARGETS.speech, `${warm.result.polls} polls`);
  await untilIdle();
}

// ---- one database

async function bench(kind: 'sqlite' | 'postgres'): Promise<void> {
  setPrefix(kind);
  mkdirSync(DATA_DIR, { recursive: true });
  const database = await benchDatabase(kind, join(DATA_DIR, 'loupe.db'), PG_SCHEMA);
  const regenerate = values.regenerate ?? false;
  const specs = {
    classification: classificationSpec(SAMPLES),
    detection: detectionSpec(IMAGES),
    speech: speechSpec(UTTERANCES),
  };
  const genStart = performance.now();
  const pairs = {} as Record<keyof typeof specs, Pair>;
  let generated = false;
  for (const key of Object.keys(specs) as (keyof typeof specs)[]) {
    if (key === 'classification' && !want('classification') && !want('memory')) continue;
    if (key !== 'classification' && !want(key)) continue;
    const first = await generate(database, specs[key], regenerate);
    const second = await generateSecond(
      database,
      specs[key],
      first.datasetId,
      regenerate || first.generated,
    );
    generated ||= first.generated || second.generated;
    pairs[key] = {
      datasetId: first.datasetId,
      a: first.predictionSetId,
      b: second.predictionSetId,
    };
  }
  console.log(
    `\n== ${kind}: two models each on classification ${SAMPLES.toLocaleString()} samples, detection ${IMAGES.toLocaleString()} images, speech ${UTTERANCES.toLocaleString()} utterances (data ${generated ? `generated in ${((performance.now() - genStart) / 1000).toFixed(0)} s` : 'reused'}; load ${loadavg()})`,
  );
  if (database.kind === 'postgres') {
    const seconds = await vacuumAnalyze(PG_SCHEMA, [
      'datasets',
      'jobs',
      'predictions',
      'predicted_objects',
    ]);
    console.log(`(vacuum analyze: ${seconds.toFixed(1)} s, not timed)`);
  }
  const app = await startInProcess(database, join(DATA_DIR, `server-${kind}`), { worker: true });
  try {
    if (pairs.classification)
      await classificationFigures(app, specs.classification, pairs.classification);
    if (pairs.detection) await detectionFigures(app, specs.detection, pairs.detection);
    if (pairs.speech) await speechFigures(app, specs.speech, pairs.speech);
  } finally {
    await app.close();
  }
  console.log(`(load at the end: ${loadavg()})`);
}

const kinds = databaseKinds(values.db);
console.log(
  `Comparison benchmark — ${os.cpus().length} cores, Node ${process.version}, load ${loadavg()}`,
);
for (const kind of kinds) await bench(kind);
