// The mask statistics of semantic segmentation predictions (the explorer's prediction.iou and
// prediction.pixel_accuracy, docs/api.md): each predicted mask is compared with its sample's
// ground truth once, by the job an upload of either enqueues, and each class's intersection and
// union stored with the prediction, so an item table of a million images reads numbers instead
// of decoding two PNGs per image.
import { TASK_TRAITS } from '@loupe/contracts';
import type { DatasetsRepository } from '../datasets/datasets.repository.js';
import type { Transact } from '../db/transact.js';
import type {
  PendingMask,
  PredictionSetsRepository,
} from '../prediction-sets/prediction-sets.repository.js';
import {
  classOfPixelValue,
  maskConfusion,
  maskStatsOf,
  type MaskStats,
} from '../processing/mask-confusion.js';
import type { MediaResolver } from '../storage/media.js';

/** Predictions read, compared and stored (in one transaction) at a time. */
const PAGE = 200;
/**
 * Masks compared at once: sharp decodes them on libuv's threads, so the event loop only counts
 * pixels (a few milliseconds a megapixel), as the performance loader does.
 */
const MASK_CONCURRENCY = 4;

export interface MaskStatsRepos {
  datasets: Pick<DatasetsRepository, 'find'>;
  predictionSets: Pick<
    PredictionSetsRepository,
    'findSet' | 'listSets' | 'countPendingMaskStats' | 'pendingMaskStats'
  >;
}

export interface MaskStatsStoreRepos {
  datasets: Pick<DatasetsRepository, 'bumpDataVersion'>;
  predictionSets: Pick<PredictionSetsRepository, 'setMaskStats'>;
}

export class MaskStatsService {
  constructor(
    private readonly repos: MaskStatsRepos,
    private readonly transact: Transact<MaskStatsStoreRepos>,
    private readonly media: Pick<MediaResolver, 'read'>,
  ) {}

  /**
   * Computes the statistics still missing in one prediction set of the dataset, or in all of
   * them, reporting progress (0–1). The data version moves once at the end when any were stored,
   * so explorer tables are rebuilt with them.
   */
  async compute(
    datasetId: string,
    setId: string | undefined,
    progress: (fraction: number) => Promise<void>,
  ): Promise<void> {
    const { repos } = this;
    const dataset = await repos.datasets.find(datasetId);
    if (!dataset || TASK_TRAITS[dataset.task_type].label !== 'mask') return;
    let setIds: string[];
    if (setId === undefined)
      setIds = (await repos.predictionSets.listSets(datasetId)).map((set) => set.id);
    else {
      const set = await repos.predictionSets.findSet(setId);
      setIds = set?.dataset_id === datasetId ? [setId] : [];
    }
    const pending = await Promise.all(
      setIds.map((id) => repos.predictionSets.countPendingMaskStats(id)),
    );
    const total = pending.reduce((a, b) => a + b, 0);
    if (total === 0) return;

    const classes = dataset.class_names;
    const classOfValue = classOfPixelValue(classes, dataset.label_map);
    const statsOf = async (mask: PendingMask): Promise<MaskStats> => {
      if (mask.truth === null) return { error: 'The sample has no ground-truth mask.' };
      // A file that cannot be read or decoded is recorded as such (as the metadata pass marks a
      // corrupt image), not tried again until an upload replaces it.
      try {
        const [truth, predicted] = await Promise.all([
          this.media.read(datasetId, mask.truth),
          this.media.read(datasetId, mask.mask),
        ]);
        return maskStatsOf(
          await maskConfusion(truth, predicted, classOfValue, classes.length),
          classes.length,
        );
      } catch (error) {
        return { error: (error as Error).message };
      }
    };

    let done = 0;
    let stored = 0;
    for (const id of setIds) {
      let after = '';
      for (;;) {
        const page = await repos.predictionSets.pendingMaskStats(datasetId, id, after, PAGE);
        if (page.length === 0) break;
        const computed = await mapBounded(page, MASK_CONCURRENCY, async (mask) => ({
          ...mask,
          stats: await statsOf(mask),
        }));
        stored += await this.transact((tx) =>
          tx.predictionSets.setMaskStats(datasetId, id, computed),
        );
        done += page.length;
        await progress(Math.min(0.99, done / total));
        if (page.length < PAGE) break;
        after = page[page.length - 1]!.sample_id;
      }
    }
    if (stored > 0) await this.transact((tx) => tx.datasets.bumpDataVersion(datasetId));
  }
}

/** `work` on every item, `concurrency` at a time; results in item order. */
async function mapBounded<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await work(items[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}
