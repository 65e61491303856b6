// A prediction set's class predictions as compact columns keyed by their samples' seqs, kept by a
// process while the set's version stays the same (docs/model-performance.md, "Evaluation data"):
// a new data version of the dataset (an upload of samples, an applied edit) then reads only the
// samples, and matches them to the kept predictions by seq, instead of reading a million
// predictions again with every sample. A sample's seq never changes (deleted samples keep theirs
// and a restore brings them back), and a set's predictions change only by an upload, which
// raises its version.
import { GrowingArray } from '@loupe/analysis';
import { ClassIndex } from './class-index.js';
import type { ClassPredictionPage, PerformanceRepository } from './performance.repository.js';

/** Sets whose columns are kept at once; the least recently used goes first. */
const KEPT = 2;

/**
 * A set's class predictions in upload order of their samples. Labels and probability names are
 * codes into `names`; probabilities are kept as uploaded (by position or by name), so the
 * evaluation reads them as it would the uploaded JSON.
 */
export interface ClassPredictions {
  /** The sample's seq of each prediction, ascending. */
  seq: Float64Array;
  names: string[];
  /** The predicted label as an index into `names`; −1 for none. */
  label: Int32Array;
  /** NaN where the prediction has no score. */
  score: Float64Array;
  /** 1 where probabilities were uploaded with the prediction. */
  given: Uint8Array;
  /** Prediction j's probabilities are entries probStart[j] … probStart[j + 1] − 1. */
  probStart: Int32Array;
  /**
   * Each entry's class: its position (≥ 0) among the dataset's classes, or −1 − an index into
   * `names` for one given by name; null when every entry is by position, in order (the usual
   * upload), so an entry's position is its place in its prediction's run.
   */
  probKey: Int32Array | null;
  probValue: Float32Array;
}

/** A set's columns built a page at a time, straight into typed arrays. */
function columnsBuilder() {
  const names = new ClassIndex([]);
  const seq = new GrowingArray(new Float64Array(1024));
  const label = new GrowingArray(new Int32Array(1024));
  const score = new GrowingArray(new Float64Array(1024));
  const given = new GrowingArray(new Uint8Array(1024));
  const probStart = new GrowingArray(new Int32Array(1024));
  probStart.push(0);
  const probValue = new GrowingArray(new Float32Array(1024));
  /** Entries' keys, made only once an entry comes by name (until then each is its position). */
  let probKey: GrowingArray<Int32Array> | null = null;
  const byName = () => {
    if (probKey !== null) return probKey;
    probKey = new GrowingArray(new Int32Array(Math.max(1024, probValue.length)));
    const keys = probKey.reserve(probValue.length);
    const starts = probStart.reserve(0);
    for (let j = 0; j + 1 < probStart.length; j++)
      for (let e = starts[j]!; e < starts[j + 1]!; e++) keys[e] = e - starts[j]!;
    probKey.length = probValue.length;
    return probKey;
  };
  return {
    add(page: ClassPredictionPage) {
      const n = page.seq.length;
      const at = seq.length;
      const seqs = seq.reserve(n);
      const labels = label.reserve(n);
      const scores = score.reserve(n);
      const flags = given.reserve(n);
      const starts = probStart.reserve(n);
      for (let k = 0; k < n; k++) {
        seqs[at + k] = page.seq[k]!;
        labels[at + k] = names.of(page.label[k]);
        const s = page.score[k];
        scores[at + k] = typeof s === 'number' ? s : NaN;
        const values = page.probabilities[k];
        flags[at + k] = values === null || values === undefined ? 0 : 1;
        if (Array.isArray(values)) {
          const from = probValue.length;
          const out = probValue.reserve(values.length);
          for (let p = 0; p < values.length; p++) out[from + p] = values[p]!;
          probValue.length += values.length;
          if (probKey !== null) {
            const keys = probKey.reserve(values.length);
            for (let p = 0; p < values.length; p++) keys[from + p] = p;
            probKey.length += values.length;
          }
        } else if (values !== null && values !== undefined) {
          const entries = Object.entries(values);
          const from = probValue.length;
          const out = probValue.reserve(entries.length);
          const keyed = byName();
          const keys = keyed.reserve(entries.length);
          entries.forEach(([key, value], p) => {
            keys[from + p] = -1 - names.of(key);
            out[from + p] = value;
          });
          probValue.length += entries.length;
          keyed.length += entries.length;
        }
        starts[at + k + 1] = probValue.length;
        // The runs so far, as byName reads them.
        probStart.length = at + k + 2;
      }
      seq.length = label.length = score.length = given.length = at + n;
    },
    finish(): ClassPredictions {
      return {
        seq: seq.toArray(),
        names: names.names,
        label: label.toArray(),
        score: score.toArray(),
        given: given.toArray(),
        probStart: probStart.toArray(),
        probKey: probKey === null ? null : (probKey as GrowingArray<Int32Array>).toArray(),
        probValue: probValue.toArray(),
      };
    },
  };
}

/** A set's columns, read page by page. */
export async function readClassPredictions(
  pages: AsyncIterable<ClassPredictionPage>,
): Promise<ClassPredictions> {
  const builder = columnsBuilder();
  for await (const page of pages) builder.add(page);
  return builder.finish();
}

/** The class predictions of the sets in use, by set and version; loads in flight are shared. */
export class ClassPredictionsCache {
  private readonly entries = new Map<
    string,
    { version: number; columns: Promise<ClassPredictions> }
  >();

  constructor(
    private readonly repo: Pick<PerformanceRepository, 'predictionSetVersion' | 'classPredictions'>,
  ) {}

  /**
   * The sets' class predictions at their current versions, in the order given; those not kept
   * are read, side by side (PerformanceRepository.classPredictions).
   */
  async get(setIds: readonly string[]): Promise<ClassPredictions[]> {
    const versions = await Promise.all(
      setIds.map(async (setId) => {
        const version = await this.repo.predictionSetVersion(setId);
        if (version === undefined) throw new Error(`prediction set ${setId} not found`);
        return version;
      }),
    );
    setIds.forEach((setId, i) => {
      if (this.entries.get(setId)?.version === versions[i]) return;
      const columns = readClassPredictions(this.repo.classPredictions(setId));
      const entry = { version: versions[i]!, columns };
      this.entries.delete(setId);
      this.entries.set(setId, entry);
      columns.catch(() => {
        if (this.entries.get(setId) === entry) this.entries.delete(setId);
      });
    });
    const kept = setIds.map((setId) => {
      const entry = this.entries.get(setId)!;
      // Now the most recently used.
      this.entries.delete(setId);
      this.entries.set(setId, entry);
      return entry.columns;
    });
    while (this.entries.size > Math.max(KEPT, setIds.length))
      this.entries.delete(this.entries.keys().next().value!);
    return Promise.all(kept);
  }
}
