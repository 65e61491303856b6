// The snapshot the checks run on (docs/health-checks.md, "Snapshot"): the sample-level columns of
// the explorer's item table (split, label and the metadata the checks declare), the features they
// ask for aligned to the samples, the ground-truth objects and a prediction set's predictions from
// its evaluation data; what each check lacks of it (its missing requirements); and each check's
// fingerprint over the inputs it declares, so only checks whose inputs moved run again.
import { createHash } from 'node:crypto';
import { TASK_TRAITS, type DataLevel, type MissingRequirement } from '@loupe/contracts';
import type { ItemTable } from '@loupe/analysis';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import { PREDICTED_OBJECT_PREFIX } from '../explore/field-catalogue.js';
import type { Evaluation } from '../performance/evaluation-loader.js';
import type { FileArray } from '../platform/task-files.js';
import type {
  CheckInput,
  CheckSnapshot,
  FeatureMatrix,
  ObjectColumns,
  PredictionColumns,
  SampleColumns,
} from './catalogue/types.js';
import type { CheckInstance } from './registry.js';

/**
 * A feature matrix as the server holds it: in a file (written as the vectors were read; the
 * checks process reads it whole, the server only hashes it in parts) or, in tests, in memory.
 */
export type SentFeatureMatrix = Omit<FeatureMatrix, 'data'> & { data: Float32Array | FileArray };

/** The snapshot as the server builds and sends it; the checks process gets a CheckSnapshot. */
export type SentSnapshot = Omit<CheckSnapshot, 'features'> & {
  features: Record<string, SentFeatureMatrix>;
};

/** The metadata ids a check reads (its inputs and requirements). */
export function metadataOf(check: CheckInstance): string[] {
  const def = check.definition;
  if (!def) return [];
  const ids = new Set(def.requires.metadata ?? []);
  for (const input of def.inputs) if (typeof input === 'object') ids.add(input.metadata);
  return [...ids];
}

/** The feature a check reads: its `feature` param, else the default feature. */
export function featureOf(check: CheckInstance, defaultFeature: string | null): string | null {
  if (!check.definition?.requires.feature) return null;
  const param = check.params.feature;
  // A categorical param holds its choice as a list (one item for a single choice).
  const value = param && 'value' in param ? param.value : null;
  const chosen = Array.isArray(value) ? value[0] : value;
  if (typeof chosen === 'string' && chosen !== '' && chosen !== 'all') return chosen;
  return defaultFeature;
}

/** The sample-level columns of a table, with the metadata fields asked for. */
export function sampleColumns(
  table: ItemTable,
  classes: string[],
  metadata: readonly string[],
): SampleColumns {
  const n = table.length;
  const splitNames = table.split ? [...new Set(table.split.categories)].sort() : [];
  const split = new Int32Array(n).fill(-1);
  if (table.split) {
    const remap = table.split.categories.map((c) => splitNames.indexOf(c));
    for (let i = 0; i < n; i++) {
      const code = table.split.codes[i]!;
      if (code >= 0) split[i] = remap[code]!;
    }
  }
  const label = new Int32Array(n).fill(-1);
  const labels = table.columns.get('label');
  if (labels && 'codes' in labels) {
    const index = new Map(classes.map((c, i) => [c, i]));
    const remap = labels.categories.map((c) => {
      let i = index.get(c);
      if (i === undefined) {
        i = classes.length;
        classes.push(c);
        index.set(c, i);
      }
      return i;
    });
    for (let i = 0; i < n; i++) {
      const code = labels.codes[i]!;
      if (code >= 0) label[i] = remap[code]!;
    }
  }
  const out: SampleColumns = {
    ids: [...table.ids],
    split,
    splitNames,
    label,
    numeric: {},
    strings: {},
    booleans: {},
  };
  for (const id of metadata) {
    const column = table.columns.get(id);
    if (!column) continue;
    if ('values' in column) out.numeric[id] = column.values;
    else if (column.type === 'boolean') {
      const values = new Int8Array(n);
      const trueCode = column.categories.indexOf('true');
      for (let i = 0; i < n; i++) {
        const code = column.codes[i]!;
        values[i] = code < 0 ? -1 : code === trueCode ? 1 : 0;
      }
      out.booleans[id] = values;
    } else {
      const values = new Array<string | null>(n);
      for (let i = 0; i < n; i++) {
        const code = column.codes[i]!;
        values[i] = code < 0 ? null : column.categories[code]!;
      }
      out.strings[id] = values;
    }
  }
  return out;
}

/** Whether a metadata column has at least one value. */
export function hasMetadata(samples: SampleColumns, id: string): boolean {
  const numeric = samples.numeric[id];
  if (numeric) return numeric.some((v) => !Number.isNaN(v));
  const strings = samples.strings[id];
  if (strings) return strings.some((v) => v !== null);
  const booleans = samples.booleans[id];
  if (booleans) return booleans.some((v) => v >= 0);
  return false;
}

function classIndex(classes: string[]): (name: string) => number {
  const index = new Map(classes.map((c, i) => [c, i]));
  return (name) => {
    let i = index.get(name);
    if (i === undefined) {
      i = classes.length;
      classes.push(name);
      index.set(name, i);
    }
    return i;
  };
}

/**
 * A prediction set's columns (and the ground-truth objects of object tasks) from its evaluation
 * data, aligned to the snapshot's samples (`row`: a sample id's row, when the caller has one).
 * Predicted objects take the explorer's ids ('pred:…').
 */
export function fromEvaluation(
  evaluation: Evaluation,
  name: string,
  ids: readonly string[],
  classes: string[],
  row: { get(id: string): number | undefined } = new Map(ids.map((id, i) => [id, i])),
): { predictions: PredictionColumns; objects: ObjectColumns | null } {
  const n = ids.length;
  const rowOf = evaluation.sampleIds.map((id) => row.get(id) ?? -1);
  const of = classIndex(classes);
  const hasPrediction = new Uint8Array(n);
  const label = new Int32Array(n).fill(-1);
  const score = new Float32Array(n).fill(NaN);
  let probabilities: Float32Array | null = null;
  let objects: ObjectColumns | null = null;
  let predicted: PredictionColumns['objects'] = null;
  rowOf.forEach((i, s) => {
    if (i >= 0) hasPrediction[i] = evaluation.hasPrediction[s]!;
  });
  const data = evaluation.data;
  if (data.kind === 'class') {
    const remap = data.classes.map(of);
    const k = data.classes.length;
    const probs = data.probabilities;
    let any = false;
    if (probs) {
      probabilities = new Float32Array(n * classes.length);
      rowOf.forEach((i, s) => {
        if (i < 0) return;
        for (let c = 0; c < k; c++) {
          const p = probs[s * k + c]!;
          if (!Number.isNaN(p)) any = true;
          probabilities![i * classes.length + remap[c]!] = p;
        }
      });
      if (!any) probabilities = null;
    }
    rowOf.forEach((i, s) => {
      if (i < 0) return;
      const p = data.pred[s]!;
      label[i] = p >= 0 ? remap[p]! : -1;
      score[i] = data.score[s]!;
    });
  } else if (data.kind === 'objects' && evaluation.objects) {
    const remap = data.classes.map(of);
    const take = (
      part: typeof data.gt | typeof data.pred,
      objectIds: string[],
      prefix: string,
    ): ObjectColumns => {
      const keep: number[] = [];
      for (let o = 0; o < part.image.length; o++) if (rowOf[part.image[o]!]! >= 0) keep.push(o);
      const boxes = new Float64Array(keep.length * 4);
      keep.forEach((o, j) => boxes.set(part.box.subarray(o * 4, o * 4 + 4), j * 4));
      return {
        ids: keep.map((o) => prefix + objectIds[o]!),
        sample: Int32Array.from(keep, (o) => rowOf[part.image[o]!]!),
        label: Int32Array.from(keep, (o) => remap[part.label[o]!] ?? -1),
        boxes,
      };
    };
    objects = take(data.gt, evaluation.objects.gtIds, '');
    const pred = data.pred;
    const own = take(pred, evaluation.objects.predIds, PREDICTED_OBJECT_PREFIX);
    const scores: number[] = [];
    for (let o = 0; o < pred.image.length; o++)
      if (rowOf[pred.image[o]!]! >= 0) scores.push(pred.score[o]!);
    predicted = { ...own, score: Float32Array.from(scores) };
  }
  return {
    predictions: {
      id: evaluation.predictionSetId,
      name,
      hasPrediction,
      label,
      score,
      probabilities,
      objects: predicted,
    },
    objects,
  };
}

/** What a check lacks of the snapshot (empty: it can run). */
export function missingRequirements(
  check: CheckInstance,
  snapshot: Pick<SentSnapshot, 'samples' | 'features' | 'predictions'>,
  defaultFeature: string | null,
): MissingRequirement[] {
  const def = check.definition;
  if (!def) return [];
  const out: MissingRequirement[] = [];
  const level = check.level;
  const needs = def.requires.predictions;
  if (needs) {
    const p = snapshot.predictions;
    if (!p) out.push(predictionsRequirement(needs, level));
    else if (needs === 'probabilities' && !p.probabilities)
      out.push(predictionsRequirement(needs, level));
    else if (needs === 'objects' && !p.objects) out.push(predictionsRequirement(needs, level));
  }
  const feature = featureOf(check, defaultFeature);
  if (def.requires.feature && (feature === null || !snapshot.features[feature]))
    out.push({
      kind: 'feature',
      data_level: level,
      name: feature ?? '',
      feature_type: level,
      message: feature ? `Upload the feature ${feature}` : 'Upload a feature',
    });
  for (const id of def.requires.metadata ?? [])
    if (!hasMetadata(snapshot.samples, id))
      out.push({
        kind: 'metadata',
        data_level: level,
        name: id,
        message: `The metadata field ${id} is missing`,
      });
  return out;
}

export function predictionsRequirement(
  needs: 'probabilities' | 'labels' | 'objects',
  level: DataLevel,
): MissingRequirement {
  const message =
    needs === 'probabilities'
      ? 'Upload predictions with class probabilities'
      : needs === 'objects'
        ? 'Upload predictions with objects'
        : 'Upload predictions';
  return { kind: 'predictions', data_level: level, message };
}

/** Hashes of the snapshot's parts, each computed once. */
export class InputHashes {
  private readonly memo = new Map<string, string>();
  constructor(private readonly snapshot: SentSnapshot) {}

  private hash(key: string, fill: (h: ReturnType<typeof createHash>) => void): string {
    let value = this.memo.get(key);
    if (value === undefined) {
      const h = createHash('sha256');
      fill(h);
      value = h.digest('hex');
      this.memo.set(key, value);
    }
    return value;
  }

  ids(): string {
    return this.hash('ids', (h) => {
      for (const id of this.snapshot.samples.ids) h.update(id).update('\0');
    });
  }

  input(input: CheckInput, feature: string | null): string {
    const s = this.snapshot;
    if (typeof input === 'object')
      return this.hash(`metadata:${input.metadata}`, (h) => {
        const id = input.metadata;
        const numeric = s.samples.numeric[id];
        const booleans = s.samples.booleans[id];
        const strings = s.samples.strings[id];
        if (numeric) h.update(bytes(numeric));
        else if (booleans) h.update(bytes(booleans));
        else if (strings) for (const v of strings) h.update(v === null ? '\u0001' : `${v}\0`);
        else h.update('absent');
      });
    switch (input) {
      case 'split':
        return this.hash('split', (h) => {
          h.update(JSON.stringify(s.samples.splitNames)).update(bytes(s.samples.split));
        });
      case 'label':
        return this.hash('label', (h) => {
          h.update(JSON.stringify(s.classes)).update(bytes(s.samples.label));
        });
      case 'objects':
        return this.hash('objects', (h) => {
          const o = s.objects;
          if (!o) return void h.update('none');
          for (const id of o.ids) h.update(id).update('\0');
          h.update(bytes(o.sample)).update(bytes(o.label)).update(bytes(o.boxes));
        });
      case 'feature':
        return this.hash(`feature:${feature}`, (h) => {
          const f = feature === null ? undefined : s.features[feature];
          if (!f) return void h.update('none');
          h.update(`${f.dimension}`);
          if (ArrayBuffer.isView(f.data)) h.update(bytes(f.data));
          else for (const part of f.data.parts()) h.update(part);
          h.update(bytes(f.present));
        });
      case 'predictions':
        return this.hash('predictions', (h) => {
          const p = s.predictions;
          if (!p) return void h.update('none');
          h.update(p.id).update(bytes(p.hasPrediction)).update(bytes(p.label));
          h.update(bytes(p.score));
          if (p.probabilities) h.update(bytes(p.probabilities));
          const o = p.objects;
          if (o) {
            for (const id of o.ids) h.update(id).update('\0');
            h.update(bytes(o.sample)).update(bytes(o.label)).update(bytes(o.boxes));
            h.update(bytes(o.score));
          }
        });
    }
  }
}

function bytes(view: ArrayBufferView): Uint8Array {
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength);
}

/** A check's fingerprint: its id, params, prediction set, the sample ids and its inputs. */
export function fingerprint(
  check: CheckInstance,
  hashes: InputHashes,
  paramsHash: string,
  predictionSetId: string,
  feature: string | null,
): string {
  const h = createHash('sha256');
  h.update(check.id).update('\0').update(paramsHash).update('\0').update(predictionSetId);
  h.update('\0').update(hashes.ids());
  for (const input of check.definition?.inputs ?? []) h.update(hashes.input(input, feature));
  return h.digest('hex');
}

/** The snapshot's media. */
export function mediaOf(dataset: DatasetRecord): 'image' | 'audio' {
  return TASK_TRAITS[dataset.task_type].media === 'audio' ? 'audio' : 'image';
}
