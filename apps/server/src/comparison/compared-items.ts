// What the explorer needs of a comparison of two models (docs/model-comparison.md, "Into the
// items"): each compared item's category, object subcategory, difference B − A and distribution
// bin, named by the ids the explorer's item tables use. The comparison service computes them
// (comparison.service.ts); the explore service turns them into per-row columns of a table
// (COMPARISON_FIELDS of the contracts) while a comparison is the context of its requests.
import type { ComparisonContext, ExploreComparison, TaskType } from '@loupe/contracts';
import type { DatasetRecord } from '../datasets/datasets.repository.js';
import type { Actor } from '../users/actor.js';

/** One kind of compared item, column by column: item t is position t of every column. */
export interface ComparedColumns {
  /** As the explorer names the item: a sample id, an object id, or 'pred:' + a predicted object id. */
  ids: string[];
  /** Index into COMPARISON_CATEGORIES; 255 = none (semantic segmentation samples). */
  category: Uint8Array;
  /** Object items: index into OBJECT_SUBCATEGORIES; null otherwise. */
  subcategory: Uint8Array | null;
  /** The difference B − A of the section's distribution; NaN where undefined. */
  delta: Float64Array;
  /** Index of the item's bin in its section's distribution; 255 = none. */
  bin: Uint8Array;
  /**
   * Semantic segmentation: the categories of the sample's compared masks, distinct, in
   * COMPARISON_CATEGORIES order, joined by ','; null for other tasks.
   */
  categories: string[] | null;
}

export interface ComparedItems {
  /** Names this computation (pair, split, metric, value name, data version, IoU threshold). */
  key: string;
  task: TaskType;
  /** The context with its metric and value name resolved. */
  context: ComparisonContext;
  /** Sample-level tasks: the compared samples of the split (semantic segmentation: see above). */
  samples: ComparedColumns | null;
  /** Object tasks: the ground-truth objects of the split's samples (per_object_gt). */
  groundTruth: ComparedColumns | null;
  /** Object tasks: model A's predicted objects in a pair or alone (per_object_pred). */
  predictionsA: ComparedColumns | null;
  /** Object tasks: model B's predicted objects in a pair or alone (per_object_pred). */
  predictionsB: ComparedColumns | null;
}

export interface ComparedItemsSource {
  /**
   * The compared items of a context, computed on the performance thread when not cached.
   * Refuses (BadRequest: the field is named `comparison.…`) a metric that is not a comparison
   * metric of the task, a split the dataset lacks, a value name it lacks, A equal to B; NotFound
   * with COMPARISON_MESSAGES.modelNotFound(id) when either model is not of the dataset; and,
   * like the comparison route, needs a license (403 without one).
   */
  items(actor: Actor, dataset: DatasetRecord, context: ExploreComparison): Promise<ComparedItems>;
}
