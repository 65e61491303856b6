import { describe, expect, it } from 'vitest';
import {
  evaluateFilter,
  fromColumns,
  histogram,
  idsAt,
  queryRows,
  rowIndex,
} from '@loupe/analysis';
import type { TaskType } from '@loupe/contracts';
import type { ComparedColumns, ComparedItems } from '../comparison/compared-items.js';
import { comparisonColumns, comparedSources, withComparison } from './comparison-columns.js';
import { comparisonFieldDefs } from './field-catalogue.js';
import type { ExploreTable } from './item-table-loader.js';

const A = 'aaaaaaaa-0000-4000-8000-000000000001';
const B = 'bbbbbbbb-0000-4000-8000-000000000002';

function base(ids: string[]): ExploreTable {
  const table = fromColumns({
    ids,
    version: 7,
    columns: { card_index: { type: 'numeric', values: ids.map((_, i) => i) } },
  });
  return { table, fields: [], dataVersion: 7, bytes: 0, stats: new Map() };
}

function columns(
  ids: string[],
  category: number[],
  delta: number[],
  bin: number[],
  extra: { subcategory?: number[]; categories?: string[] } = {},
): ComparedColumns {
  return {
    ids,
    category: Uint8Array.from(category),
    subcategory: extra.subcategory ? Uint8Array.from(extra.subcategory) : null,
    delta: Float64Array.from(delta),
    bin: Uint8Array.from(bin),
    categories: extra.categories ?? null,
  };
}

function compared(task: TaskType, parts: Partial<ComparedItems>, key = 'k1'): ComparedItems {
  return {
    key,
    task,
    context: {
      predictions_id_a: A,
      predictions_id_b: B,
      split: 'all',
      metric: 'accuracy',
      regression_value_name: null,
    },
    samples: null,
    groundTruth: null,
    predictionsA: null,
    predictionsB: null,
    ...parts,
  };
}

/** A column's values by row: strings, numbers, null where missing. */
function values(explore: ExploreTable, id: string): (string | number | null)[] {
  const column = explore.table.columns.get(id)!;
  if ('values' in column) return Array.from(column.values, (v) => (Number.isNaN(v) ? null : v));
  return Array.from(column.codes, (c) => (c < 0 ? null : column.categories[c]!));
}

describe('comparison columns', () => {
  const classification = compared('classification', {
    // 'gone' was deleted since the comparison was computed: no row takes it.
    samples: columns(['s3', 's1', 'gone'], [3, 0, 2], [0.5, -0.25, 0], [14, 5, 10]),
  });

  it('give each sample row its compared values, and null to rows no item names', () => {
    const explore = withComparison(base(['s1', 's2', 's3']), classification, 'image', A);
    expect(values(explore, 'comparison.category')).toEqual([
      'model_a_is_better',
      null,
      'model_b_is_better',
    ]);
    expect(values(explore, 'comparison.delta')).toEqual([-0.25, null, 0.5]);
    expect(values(explore, 'comparison.bin')).toEqual([5, null, 14]);
    expect(explore.fields.map((f) => [f.id, f.group, f.source])).toEqual([
      ['comparison.category', 'Comparison', 'computed'],
      ['comparison.delta', 'Comparison', 'computed'],
      ['comparison.bin', 'Comparison', 'computed'],
    ]);
  });

  it('keep the base table’s rows, ids, version and id index', () => {
    const start = base(['s1', 's2', 's3']);
    const explore = withComparison(start, classification, 'image', B);
    expect(explore.table.version).toBe(7);
    expect(explore.table.ids).toBe(start.table.ids);
    expect(rowIndex(explore.table)).toBe(rowIndex(start.table));
    expect(explore.table.columns.get('card_index')).toBe(start.table.columns.get('card_index'));
    expect(start.table.columns.has('comparison.category')).toBe(false);
  });

  it('filter, sort and count like any other column', () => {
    const explore = withComparison(base(['s1', 's2', 's3']), classification, 'image', A);
    const { table } = explore;
    const kept = evaluateFilter(table, {
      type: 'string',
      metadata_id: 'comparison.category',
      op: 'in',
      value: ['model_b_is_better', 'model_a_is_better'],
    });
    expect(
      idsAt(table, queryRows(table, { within: kept, sort: [], include_missing: true })),
    ).toEqual(['s1', 's3']);
    const binFive = evaluateFilter(table, {
      type: 'numeric',
      metadata_id: 'comparison.bin',
      op: 'between',
      value: [5, 5],
    });
    expect(
      idsAt(table, queryRows(table, { within: binFive, sort: [], include_missing: true })),
    ).toEqual(['s1']);
    const sorted = queryRows(table, {
      within: null,
      sort: [{ name: 'comparison.delta', direction: 'descending' }],
      include_missing: false,
    });
    expect(idsAt(table, sorted)).toEqual(['s3', 's1']);
    const counts = histogram(table, 'comparison.category', { rows: null, max_num_bins: 20 });
    expect(counts.metadata_type).toBe('string');
    expect(counts.counts_per_bin.map((bin) => (bin as { category: string }).category)).toEqual([
      'model_a_is_better',
      'model_b_is_better',
    ]);
  });

  it('are built once per base table and comparison', () => {
    const start = base(['s1', 's2', 's3']);
    const first = withComparison(start, classification, 'image', A);
    expect(withComparison(start, classification, 'image', A)).toBe(first);
    const other = withComparison(start, { ...classification, key: 'k2' }, 'image', A);
    expect(other).not.toBe(first);
    expect(withComparison(base(['s1', 's2', 's3']), classification, 'image', A)).not.toBe(first);
  });

  it('give object rows the ground truths’ values and the explorer’s own model’s predictions', () => {
    const detection = compared('object_detection', {
      groundTruth: columns(['g1', 'g2'], [0, 2], [1, NaN], [20, 255], { subcategory: [0, 2] }),
      predictionsA: columns(['pred:pa'], [0], [0.4], [12], { subcategory: [5] }),
      predictionsB: columns(['pred:pb'], [3], [-0.6], [4], { subcategory: [7] }),
    });
    const ids = ['g1', 'g2', 'pred:pa', 'pred:pb'];
    const inA = withComparison(base(ids), detection, 'image_object', A);
    expect(values(inA, 'comparison.subcategory')).toEqual([
      'tp_a_fn_b',
      'fn_a_fn_b',
      'tp_a_unmatched_b',
      null,
    ]);
    expect(values(inA, 'comparison.category')).toEqual([
      'model_a_is_better',
      'both_are_neutral',
      'model_a_is_better',
      null,
    ]);
    expect(values(inA, 'comparison.delta')).toEqual([1, null, 0.4, null]);
    expect(values(inA, 'comparison.bin')).toEqual([20, null, 12, null]);
    const inB = withComparison(base(ids), detection, 'image_object', B);
    expect(values(inB, 'comparison.subcategory')).toEqual([
      'tp_a_fn_b',
      'fn_a_fn_b',
      null,
      'fp_a_unmatched_b',
    ]);
    // The image level of an object task has no comparison columns.
    const images = base(['i1']);
    expect(withComparison(images, detection, 'image', A)).toBe(images);
  });

  it('give semantic segmentation samples the categories of their masks', () => {
    const segmentation = compared('semantic_segmentation', {
      samples: columns(['s1', 's2'], [255, 255], [NaN, NaN], [255, 255], {
        categories: ['model_a_is_better,both_are_neutral', ''],
      }),
    });
    const explore = withComparison(base(['s1', 's2']), segmentation, 'image', A);
    expect(explore.fields.map((f) => f.id)).toEqual(['comparison.categories']);
    expect(values(explore, 'comparison.categories')).toEqual([
      'model_a_is_better,both_are_neutral',
      null,
    ]);
    expect(comparisonFieldDefs('semantic_segmentation', 'image_object')).toEqual([]);
  });

  it('map only the fields asked for', () => {
    const table = base(['s1']).table;
    const defs = comparisonFieldDefs('regression', 'image');
    const sources = comparedSources(
      compared('regression', { samples: columns(['s1'], [1], [2], [3]) }),
      'image',
      A,
    );
    expect(Object.keys(comparisonColumns(table, defs.slice(0, 1), sources))).toEqual([
      'comparison.category',
    ]);
  });
});
