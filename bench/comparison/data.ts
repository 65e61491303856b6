// Data of the comparison benchmark: the model performance benchmark's three datasets (its data.ts:
// 1,000,000 classification samples, 5,000 detection images with 36,000 boxes, 100,000 utterances),
// each with its prediction set as model A, plus a second prediction set, model B, generated from
// the same ground truth with another seeded stream: a better classifier (about 85 % right against
// A's 80 %), a detector that finds 88 % of the boxes with tighter jitter, and a recogniser with
// fewer substitutions. Written by bulk SQL and reused by the next run like model A.
import { randomUUID } from 'node:crypto';
import type { DatabaseConfig } from '@loupe/server/embedded';
import { openBulkWriter } from '../support/bulk-sql.js';
import { mulberry32 } from '../support/random.js';
import {
  DETECTION_CLASSES,
  IMAGE_HEIGHT,
  IMAGE_WIDTH,
  PREDICTED_OBJECTS,
  PREDICTIONS,
  WORDS,
  samplesOf,
  type Box,
  type GeneratedSample,
  type PerformanceSpec,
} from '../performance/data.js';

export const MODEL_B = 'bench-model-b';

/** Model B's prediction of a sample: a label, score and transcript, and predicted boxes. */
export interface SecondPrediction {
  prediction: { label: string | null; score: number | null; transcript: string | null } | null;
  predictedObjects: Box[];
}

const round = (v: number, digits: number) => Math.round(v * 10 ** digits) / 10 ** digits;

/** Model B of a spec, from each sample's ground truth and B's own seeded stream. */
export function secondModel(spec: PerformanceSpec): (s: GeneratedSample) => SecondPrediction {
  const random = mulberry32(spec.seed * 7919 + 1);
  switch (spec.task) {
    case 'classification':
      return (s) => {
        const right = random() < 0.85;
        const truth = spec.classes.indexOf(s.label!);
        const other =
          (truth + 1 + Math.floor(random() * (spec.classes.length - 1))) % spec.classes.length;
        const score = round(right ? 0.55 + 0.45 * random() : 0.2 + 0.6 * random(), 4);
        return {
          prediction: { label: spec.classes[right ? truth : other]!, score, transcript: null },
          predictedObjects: [],
        };
      };
    case 'object_detection':
      return (s) => {
        const boxes: Box[] = [];
        const id = () => `${s.id}$${String(boxes.length).padStart(3, '0')}`;
        const budget = s.predictedObjects.length;
        for (const gt of s.objects) {
          if (boxes.length >= budget || random() >= 0.88) continue;
          const jitter = (size: number) => (random() - 0.5) * 0.1 * size;
          boxes.push({
            id: id(),
            label:
              random() < 0.94
                ? gt.label
                : DETECTION_CLASSES[Math.floor(random() * DETECTION_CLASSES.length)]!,
            x: round(gt.x + jitter(gt.w), 2),
            y: round(gt.y + jitter(gt.h), 2),
            w: round(gt.w * (1 + (random() - 0.5) * 0.12), 2),
            h: round(gt.h * (1 + (random() - 0.5) * 0.12), 2),
            score: 0.45 + 0.55 * random(),
          });
        }
        while (boxes.length < budget) {
          const w = round(10 + random() * 150, 2);
          const h = round(10 + random() * 120, 2);
          boxes.push({
            id: id(),
            label: DETECTION_CLASSES[Math.floor(random() * DETECTION_CLASSES.length)]!,
            x: round(random() * (IMAGE_WIDTH - w), 2),
            y: round(random() * (IMAGE_HEIGHT - h), 2),
            w,
            h,
            score: 0.55 * random(),
          });
        }
        return {
          prediction: { label: null, score: null, transcript: null },
          predictedObjects: boxes,
        };
      };
    case 'automatic_speech_recognition':
      return (s) => {
        const hypothesis: string[] = [];
        for (const w of s.transcript!.split(' ')) {
          const r = random();
          if (r < 0.93) hypothesis.push(w);
          else if (r < 0.96) hypothesis.push(WORDS[Math.floor(WORDS.length * random())]!);
          else if (r < 0.99) continue;
          else hypothesis.push(w, WORDS[Math.floor(WORDS.length * random())]!);
        }
        return {
          prediction: { label: null, score: null, transcript: hypothesis.join(' ') },
          predictedObjects: [],
        };
      };
  }
}

/** Model B's predictions, in sample order (the same on every call). */
export function* secondPredictions(
  spec: PerformanceSpec,
): Generator<[GeneratedSample, SecondPrediction]> {
  const predict = secondModel(spec);
  for (const s of samplesOf(spec)) yield [s, predict(s)];
}

/** Writes model B of a dataset unless it exists (or `regenerate`); its prediction set id. */
export async function generateSecond(
  database: DatabaseConfig,
  spec: PerformanceSpec,
  datasetId: string,
  regenerate: boolean,
): Promise<{ predictionSetId: string; generated: boolean }> {
  const bulk = await openBulkWriter(database);
  try {
    const [existing] = await bulk.select<{ id: string; num_present: number }>(
      'select id, num_present from prediction_sets where dataset_id = ? and name = ?',
      [datasetId, MODEL_B],
    );
    // num_present is written last: a half-written model B is written again.
    if (existing && existing.num_present > 0 && !regenerate)
      return { predictionSetId: existing.id, generated: false };
    if (existing) await bulk.run('delete from prediction_sets where id = ?', [existing.id]);
    const predictionSetId = randomUUID();
    const now = Date.now();
    await bulk.insert('prediction_sets', {
      id: predictionSetId,
      dataset_id: datasetId,
      name: MODEL_B,
      num_present: 0,
      created_at: now,
      updated_at: now,
    });
    let present = 0;
    let predictions: unknown[][] = [];
    let objects: unknown[][] = [];
    const flush = async () => {
      await bulk.batch([
        { table: 'predictions', columns: PREDICTIONS, rows: predictions },
        { table: 'predicted_objects', columns: PREDICTED_OBJECTS, rows: objects },
      ]);
      predictions = [];
      objects = [];
    };
    // Samples were written in this order, their seqs counting from 0 (performance/data.ts).
    let seq = 0;
    for (const [s, b] of secondPredictions(spec)) {
      const sampleSeq = seq++;
      if (b.prediction) {
        present++;
        const p = b.prediction;
        predictions.push([predictionSetId, s.id, sampleSeq, p.label, p.score, p.transcript, now]);
      }
      for (const o of b.predictedObjects)
        objects.push([predictionSetId, o.id, s.id, o.label, o.score, o.x, o.y, o.w, o.h]);
      if (predictions.length >= 10_000) await flush();
    }
    if (predictions.length > 0 || objects.length > 0) await flush();
    await bulk.run('update prediction_sets set num_present = ? where id = ?', [
      present,
      predictionSetId,
    ]);
    await bulk.analyze();
    return { predictionSetId, generated: true };
  } finally {
    await bulk.close();
  }
}
