// A prediction set's class predictions as compact columns keyed by their samples' seqs, kept by a
// process while the set's version stays the same (docs/model-performance.md, "Evaluation data"):
// a new data version of the dataset (an upload of samples, an applied edit) then reads only the
// samples, and matches them to the kept predictions by seq, instead of reading a million
// predictions again with every sample. A sample's seq never changes (deleted samples keep theirs
// and a restore brings them back), and a set's predictions change only by an upload, which
// raises its version.
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

/** A set's columns built a page at a time. */
function columnsBuilder() {
  const names = new ClassIndex([]);
  const seq: number[] = [];
  const label: number[] = [];
  const score: number[] = [];
  const given: number[] = [];
  const probStart: number[] = [0];
  const probKey: number[] = [];
  const probValue: number[] = [];
  let byPosition = true;
  return {
    add(page: ClassPredictionPage) {
      for (let k = 0; k < page.seq.length; k++) {
        seq.push(page.seq[k]!);
        const name = page.label[k];
        label.push(names.of(name));
        const s = page.score[k];
        score.push(typeof s === 'number' ? s : NaN);
        const values = page.probabilities[k];
        given.push(values === null || values === undefined ? 0 : 1);
        if (Array.isArray(values)) {
          for (let p = 0; p < values.length; p++) {
            probKey.push(p);
            probValue.push(values[p]!);
          }
        } else if (values !== null && values !== undefined) {
          for (const [key, value] of Object.entries(values)) {
            byPosition = false;
            probKey.push(-1 - names.of(key));
            probValue.push(value);
          }
        }
        probStart.push(probValue.length);
      }
    },
    finish(): ClassPredictions {
      return {
        seq: Float64Array.from(seq),
        names: names.names,
        label: Int32Array.from(label),
        score: Float64Array.from(score),
        given: Uint8Array.from(given),
        probStart: Int32Array.from(probStart),
        probKey: byPosition ? null : Int32Array.from(probKey),
        probValue: Float32Array.from(probValue),
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
