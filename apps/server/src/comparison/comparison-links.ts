// The explore links of a comparison (docs/model-comparison.md, "Explore links"): every category,
// subcategory, distribution and entity of the computed comparison gets the explorer
// configuration that shows exactly its items, through the per-item comparison columns the
// explorer has while the comparison is its context (COMPARISON_FIELDS). @loupe/metrics computes
// the comparison with every explore_config null; this fills them in.
import {
  ALL_SPLITS,
  COMPARISON_CATEGORIES,
  COMPARISON_FIELDS,
  TASK_TRAITS,
  type CategoryCount,
  type ComparisonCategory,
  type ComparisonContext,
  type ComparisonDistribution,
  type ComparisonExploreConfig,
  type ComparisonResult,
  type ComparisonSection,
  type EntityBreakdown,
  type Filter,
  type ObjectSubcategory,
  type TaskType,
} from '@loupe/contracts';
import type {
  ComparisonResult as ComputedResult,
  ComparisonSection as ComputedSection,
  ComparisonDistribution as ComputedDistribution,
  EntityBreakdown as ComputedBreakdown,
  ModelComparison,
  SectionItems,
} from '@loupe/metrics';
import { maskCategoriesBySample } from './compared-columns.js';

type Base = Omit<ComparisonExploreConfig, 'bin_metadata_id' | 'context'>;

const inList = (metadata_id: string, value: string[]): Filter => ({
  type: 'string',
  metadata_id,
  op: 'in',
  value,
});

const and = (...children: (Filter | null)[]): Filter | null => {
  const present = children.filter((c): c is Filter => c !== null);
  return present.length === 0
    ? null
    : present.length === 1
      ? present[0]!
      : { type: 'and', children: present };
};

/** The explorer level of a task's samples. */
function sampleLevel(task: TaskType) {
  return TASK_TRAITS[task].dataLevels[0]!;
}

/** The task's per-item prediction fields a sample link shows beside the comparison columns. */
function predictionFields(task: TaskType, context: ComparisonContext): string[] {
  switch (TASK_TRAITS[task].label) {
    case 'class':
      return ['prediction.label', 'prediction.score'];
    case 'value':
      if (context.metric === 'mean_squared_error') return ['prediction.squared_error'];
      return [
        context.regression_value_name === null
          ? 'prediction.absolute_error'
          : `prediction.absolute_error.${context.regression_value_name}`,
      ];
    case 'transcript':
      return [context.metric === 'match_error_rate' ? 'prediction.mer' : 'prediction.wer'];
    case 'mask':
      return ['prediction.iou'];
    default:
      return [];
  }
}

const OBJECT_VISIBLE = [
  COMPARISON_FIELDS.subcategory,
  COMPARISON_FIELDS.delta,
  'prediction.match_status',
  'prediction.iou',
  'prediction.score',
];

/** How the links of one section find its items. */
interface SectionLinks {
  /** The section's items as a whole (its distribution's link); null: no distribution link. */
  all: Base | null;
  category(category: ComparisonCategory): Base;
  subcategory(subcategory: ObjectSubcategory): Base;
}

export class ComparisonLinks {
  constructor(
    private readonly task: TaskType,
    private readonly context: ComparisonContext,
  ) {}

  private config(base: Base | null, bins = false): ComparisonExploreConfig | null {
    if (!base) return null;
    return { ...base, bin_metadata_id: bins ? COMPARISON_FIELDS.bin : null, context: this.context };
  }

  /** Restricts a filter to the compared split (entity links: the column values are not). */
  private inSplit(filter: Filter): Filter {
    return this.context.split === ALL_SPLITS
      ? filter
      : and(filter, inList('split', [this.context.split]))!;
  }

  /** Sample sections (classification, audio, regression, speech recognition). */
  samples(): SectionLinks {
    const visible = [
      COMPARISON_FIELDS.category,
      COMPARISON_FIELDS.delta,
      ...predictionFields(this.task, this.context),
    ];
    const base = (filter: Filter | null): Base => ({
      data_level: sampleLevel(this.task),
      filter,
      sort_by: COMPARISON_FIELDS.delta,
      visible_metadata_ids: visible,
    });
    return {
      // Items outside the comparison have no bin: a bin's filter alone finds the section's.
      all: base(null),
      category: (category) => base(inList(COMPARISON_FIELDS.category, [category])),
      subcategory: () => base(null),
    };
  }

  /** Object sections: ground-truth objects ('gt') or predicted objects ('pred'). */
  objects(type: 'gt' | 'pred'): SectionLinks {
    const base = (filter: Filter | null): Base => ({
      data_level: 'image_object',
      filter: and(inList('object.type', [type]), filter),
      sort_by: COMPARISON_FIELDS.delta,
      visible_metadata_ids: OBJECT_VISIBLE,
    });
    return {
      all: base(null),
      category: (category) => base(inList(COMPARISON_FIELDS.category, [category])),
      subcategory: (subcategory) => base(inList(COMPARISON_FIELDS.subcategory, [subcategory])),
    };
  }

  /**
   * Semantic segmentation compares masks, which the explorer shows as samples holding the
   * categories of their masks: a category's link finds the samples whose list has it. Masks
   * have no explorer rows of their own, so their distribution has no link.
   */
  masks(items: SectionItems): SectionLinks {
    const values = [...new Set(maskCategoriesBySample(items).values())].sort();
    const base = (filter: Filter | null): Base => ({
      data_level: sampleLevel(this.task),
      filter,
      sort_by: null,
      visible_metadata_ids: [
        COMPARISON_FIELDS.categories,
        ...predictionFields(this.task, this.context),
      ],
    });
    return {
      all: null,
      category: (category) =>
        base(
          inList(
            COMPARISON_FIELDS.categories,
            values.filter((v) => v.split(',').includes(category)),
          ),
        ),
      subcategory: () => base(null),
    };
  }

  distribution(distribution: ComputedDistribution, base: Base | null): ComparisonDistribution {
    return { ...distribution, explore_config: this.config(base, true) };
  }

  section(section: ComputedSection, links: SectionLinks): ComparisonSection {
    const counted = (count: { num_items: number }, base: Base): Base | null =>
      count.num_items === 0 ? null : base;
    const category = (id: ComparisonCategory): CategoryCount => ({
      ...section[id],
      explore_config: this.config(counted(section[id], links.category(id))),
    });
    const subcategories: ComparisonSection['subcategories'] = {};
    for (const [id, sub] of Object.entries(section.subcategories) as [
      ObjectSubcategory,
      NonNullable<ComputedSection['subcategories'][ObjectSubcategory]>,
    ][]) {
      const base = links.subcategory(id);
      subcategories[id] = {
        ...sub,
        explore_config: this.config(counted(sub, base)),
        distribution: this.distribution(sub.distribution, links.all ? base : null),
      };
    }
    const [aBetter, problematic, neutral, bBetter] = COMPARISON_CATEGORIES.map(category);
    return {
      unit: section.unit,
      num_items: section.num_items,
      model_a_is_better: aBetter!,
      both_are_problematic: problematic!,
      both_are_neutral: neutral!,
      model_b_is_better: bBetter!,
      subcategories,
      distribution: this.distribution(section.distribution, links.all),
    };
  }

  /** Classes: the items of the class (ground truth or the model's prediction); words: none. */
  entities(breakdown: ComputedBreakdown): EntityBreakdown {
    const traits = TASK_TRAITS[this.task];
    const link = (entity: string): ComparisonExploreConfig | null => {
      if (breakdown.entity !== 'class') return null;
      if (traits.label === 'class')
        return this.config({
          data_level: sampleLevel(this.task),
          filter: this.inSplit({
            type: 'or',
            children: [inList('label', [entity]), inList('prediction.label', [entity])],
          }),
          sort_by: COMPARISON_FIELDS.delta,
          visible_metadata_ids: [
            COMPARISON_FIELDS.category,
            COMPARISON_FIELDS.delta,
            'label',
            ...predictionFields(this.task, this.context),
          ],
        });
      if (traits.hasObjects)
        return this.config({
          data_level: 'image_object',
          filter: this.inSplit(inList('object.label', [entity])),
          sort_by: COMPARISON_FIELDS.delta,
          visible_metadata_ids: ['object.label', 'object.type', ...OBJECT_VISIBLE],
        });
      return null;
    };
    const group = (list: ComputedBreakdown['model_a_is_better']) =>
      list.map((e) => ({ ...e, explore_config: link(e.entity) }));
    return {
      entity: breakdown.entity,
      metric: breakdown.metric,
      num_entities: breakdown.num_entities,
      model_a_is_better: group(breakdown.model_a_is_better),
      both_are_problematic: group(breakdown.both_are_problematic),
      both_are_neutral: group(breakdown.both_are_neutral),
      model_b_is_better: group(breakdown.model_b_is_better),
    };
  }
}

/** The computed comparison with every explore link in place. */
export function withExploreLinks(
  computed: ModelComparison,
  context: ComparisonContext,
): ComparisonResult {
  const result: ComputedResult = computed.result;
  const { items } = computed;
  const links = new ComparisonLinks(result.task, context);
  const perSample =
    result.per_sample && items.per_sample
      ? links.section(
          result.per_sample,
          items.per_sample.unit === 'mask' ? links.masks(items.per_sample) : links.samples(),
        )
      : null;
  return {
    ...result,
    per_class: result.per_class && links.entities(result.per_class),
    per_word: result.per_word && links.entities(result.per_word),
    per_sample: perSample,
    per_object_gt: result.per_object_gt && links.section(result.per_object_gt, links.objects('gt')),
    per_object_pred:
      result.per_object_pred && links.section(result.per_object_pred, links.objects('pred')),
  };
}
