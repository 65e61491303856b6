// What a health check is to the framework (docs/health-checks.md, "The catalogue"): a definition
// with a key, group, texts, typed params and requirements, and a pure `run` over a snapshot of the
// dataset's columns. Definitions run in the checks process (checks.worker.ts), never on the
// API's event loop; they import @loupe/analysis for the compute and nothing with I/O.
import type { KeptValue } from '@loupe/analysis';
import type {
  CheckGroup,
  CheckParams,
  DataLevel,
  Evidence,
  Recommendation,
  SortEntry,
  TaskType,
} from '@loupe/contracts';

/** A metadata column of the samples, by field id (e.g. 'image.brightness'). */
export interface SampleColumns {
  /** Sample ids, live samples in upload order; every other column is aligned to them. */
  ids: string[];
  /** Index into `splitNames`; −1 for a sample without a split. */
  split: Int32Array;
  /** The dataset's splits, ascending. */
  splitNames: string[];
  /** Classification tasks: the label as an index into CheckSnapshot.classes; −1 none (or other tasks). */
  label: Int32Array;
  /** Numeric metadata by field id; NaN where missing. */
  numeric: Record<string, Float64Array>;
  /** String metadata by field id (e.g. 'image.content_hash', 'image.phash'); null where missing. */
  strings: Record<string, (string | null)[]>;
  /** Boolean metadata by field id: 1 true, 0 false, −1 missing (e.g. 'image.corrupt'). */
  booleans: Record<string, Int8Array>;
}

/** A feature's vectors aligned to the samples (rows without a vector are zeros, `present` 0). */
export interface FeatureMatrix {
  name: string;
  dimension: number;
  /** samples × dimension, row-major. */
  data: Float32Array;
  present: Uint8Array;
}

/** Ground-truth objects (detection and instance segmentation). */
export interface ObjectColumns {
  ids: string[];
  /** Row of the object's sample in SampleColumns. */
  sample: Int32Array;
  /** Index into CheckSnapshot.classes. */
  label: Int32Array;
  /** x, y, w, h per object (pixels); NaN when the object has no box. */
  boxes: Float64Array;
}

export interface PredictedObjectColumns extends ObjectColumns {
  score: Float32Array;
}

/** The prediction set a model check reads. */
export interface PredictionColumns {
  id: string;
  name: string;
  /** 1 where the sample has a prediction. */
  hasPrediction: Uint8Array;
  /** Classification: predicted class index (−1 none). */
  label: Int32Array;
  score: Float32Array;
  /** Classification with probabilities: samples × classes (dataset class order); null without. */
  probabilities: Float32Array | null;
  objects: PredictedObjectColumns | null;
}

export interface CheckSnapshot {
  datasetId: string;
  task: TaskType;
  /** The media of the samples. */
  media: 'image' | 'audio';
  classes: string[];
  samples: SampleColumns;
  objects: ObjectColumns | null;
  /** The features the checks asked for, by name (only those the dataset has). */
  features: Record<string, FeatureMatrix>;
  /** The prediction set of model checks (null: none, or none asked for). */
  predictions: PredictionColumns | null;
}

/** What a check reads; also what its fingerprint hashes (a rerun is skipped when unchanged). */
export type CheckInput =
  'split' | 'label' | 'objects' | 'feature' | 'predictions' | { metadata: string };

export interface CheckRequirements {
  /** A prediction set: with class probabilities, any labels, or predicted objects. */
  predictions?: 'probabilities' | 'labels' | 'objects';
  /** A feature at the check's level, chosen by the check's `feature` param (default: the default descriptor). */
  feature?: boolean;
  /** Metadata field ids the check reads (missing: the check is 'Missing Requirements'). */
  metadata?: string[];
}

/** What a check's params can offer: the dataset's features, classes and splits. */
export interface ParamContext {
  features: string[];
  defaultFeature: string | null;
  classes: string[];
  splits: string[];
}

export interface CheckFieldSpec {
  /** The field is `checks.<checkId>.<name>` in the explorer. */
  name: string;
  label: string;
  type: 'numeric' | 'string';
}

export interface CheckRunInput {
  snapshot: CheckSnapshot;
  /** The check's params, defaults merged with the user's values. */
  params: CheckParams;
  level: DataLevel;
  checkId: string;
  /** Search state kept for the dataset between runs (none: the check runs in full). */
  state?: CheckState;
}

/** A kept search state: typed arrays, strings and numbers by name. */
export type KeptRecord = Record<string, KeptValue>;

/**
 * Search state a check keeps between runs, by key (docs/health-checks.md, "Reruns after items are
 * added"): the key names the search and every setting it depends on besides the items (feature,
 * thresholds), the state names the items. A cache: `read` answers null when there is none, and a
 * check must then give the result of a full run.
 */
export interface CheckState {
  read(key: string): KeptRecord | null;
  /** Keeps `record` under `key` (null: removes it). */
  write(key: string, record: KeptRecord | null): void;
}

/**
 * A check's result. The framework stores it; when answering it takes ignored items out of
 * `flagged`, of the counts and of every suggestion, and adds the items evidence (the flagged items
 * in the explorer's grid, filtered by `checks.<checkId>.failed`).
 */
export interface CheckOutcome {
  /** Items the check looked at. */
  checked: number;
  /** Item ids (as the explorer names them at the level) that fail, with their field values. */
  flagged: {
    ids: string[];
    /** Per CheckFieldSpec name, one value per flagged id. */
    values: Record<string, (number | string | null)[]>;
  };
  /**
   * Fail or pass when it does not follow from the flagged items (balance checks fail on a table);
   * by default the check fails when any flagged item is not ignored.
   */
  verdict?: 'fail' | 'pass';
  /** The failed view's one sentence; `{n}` becomes the number of failed items not ignored. */
  summary: string;
  /** How the items evidence sorts and which metadata it shows (field names of the check or metadata ids). */
  preview?: { sort_by: SortEntry[]; visible_metadata_ids: string[] };
  /** Evidence besides the flagged items (text, table_per_split). */
  evidence: Evidence[];
  recommendation: Recommendation | null;
  is_approximate: boolean;
}

export interface CheckDefinition {
  /** Stable key, e.g. 'near_duplicate_leaked'; the check's id is `<key>.<level>`. */
  key: string;
  group: CheckGroup;
  /** The levels the check runs at for a task ([]: not offered for that task). */
  levels(task: TaskType): DataLevel[];
  name(level: DataLevel): string;
  description(level: DataLevel): string[];
  /** The configure dialog's text. */
  configDescription: string;
  /** Default params (the user's values are merged over them by name). */
  params(context: ParamContext): CheckParams;
  requires: CheckRequirements;
  inputs: CheckInput[];
  fields: CheckFieldSpec[];
  /** Order within the group (lower first), e.g. duplicate leaked before duplicate. */
  order: number;
  run(input: CheckRunInput): CheckOutcome;
}
