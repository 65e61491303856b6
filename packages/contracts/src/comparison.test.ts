// The comparison contract: the request's defaults and refusals, and the category tables the
// page and the server read.
import { describe, expect, it } from 'vitest';
import {
  COMPARISON_CATEGORIES,
  COMPARISON_CATEGORY_LABELS,
  COMPARISON_MESSAGES,
  ComparisonRequest,
  GROUND_TRUTH_SUBCATEGORIES,
  OBJECT_SUBCATEGORIES,
  OBJECT_SUBCATEGORY_CATEGORY,
  OBJECT_SUBCATEGORY_EXPLORE,
  PREDICTION_SUBCATEGORIES,
  comparisonSegments,
} from './comparison.js';

const A = '0196f3a2-0000-7000-8000-000000000001';
const B = '0196f3a2-0000-7000-8000-000000000002';

describe('comparison request', () => {
  it("defaults the split to 'all' and leaves metric and value name to the task", () => {
    expect(ComparisonRequest.parse({ predictions_id_a: A, predictions_id_b: B })).toEqual({
      predictions_id_a: A,
      predictions_id_b: B,
      split: 'all',
    });
  });

  it('names the field of a malformed model id', () => {
    const result = ComparisonRequest.safeParse({ predictions_id_a: A, predictions_id_b: 'abc' });
    expect(result.success).toBe(false);
    expect(result.error!.issues[0]).toMatchObject({
      path: ['predictions_id_b'],
      message: 'predictions_id_b must be a prediction set id (UUID)',
    });
  });
});

describe('categories and subcategories', () => {
  it('sorts A better, both problematic, both neutral, B better', () => {
    expect(COMPARISON_CATEGORIES).toEqual([
      'model_a_is_better',
      'both_are_problematic',
      'both_are_neutral',
      'model_b_is_better',
    ]);
    expect(comparisonSegments('regression')).toEqual([
      'model_a_is_better',
      'both_are_neutral',
      'model_b_is_better',
    ]);
    expect(comparisonSegments('automatic_speech_recognition')).toHaveLength(3);
    expect(comparisonSegments('object_detection')).toEqual(COMPARISON_CATEGORIES);
  });

  it('labels neutral and problematic per task', () => {
    expect(COMPARISON_CATEGORY_LABELS.classification.both_are_neutral).toBe('Both are correct');
    expect(COMPARISON_CATEGORY_LABELS.instance_segmentation.both_are_problematic).toBe(
      'Both are incorrect',
    );
    expect(COMPARISON_CATEGORY_LABELS.regression.both_are_neutral).toBe('Both are equal');
    expect(COMPARISON_CATEGORY_LABELS.semantic_segmentation.both_are_problematic).toBe(
      'Both are zero',
    );
    expect(COMPARISON_CATEGORY_LABELS.audio_classification.model_b_is_better).toBe(
      'Model B is better',
    );
  });

  it('has eleven subcategories, shared by the two sections only in tp_a_tp_b', () => {
    expect(OBJECT_SUBCATEGORIES).toHaveLength(11);
    const both = [...GROUND_TRUTH_SUBCATEGORIES, ...PREDICTION_SUBCATEGORIES];
    expect(new Set(both)).toEqual(new Set(OBJECT_SUBCATEGORIES));
    expect(both.filter((id) => both.indexOf(id) !== both.lastIndexOf(id))).toEqual([
      'tp_a_tp_b',
      'tp_a_tp_b',
    ]);
  });

  it('mirrors: a subcategory and its swap count for mirrored categories', () => {
    const mirror = (id: string) => {
      const [a, , b] = id.split('_');
      return `${b}_a_${a}_b` as (typeof OBJECT_SUBCATEGORIES)[number];
    };
    const swapped = {
      model_a_is_better: 'model_b_is_better',
      model_b_is_better: 'model_a_is_better',
    };
    for (const id of OBJECT_SUBCATEGORIES) {
      const category = OBJECT_SUBCATEGORY_CATEGORY[id];
      expect(OBJECT_SUBCATEGORY_CATEGORY[mirror(id)]).toBe(
        swapped[category as keyof typeof swapped] ?? category,
      );
    }
  });

  it('links only the model that has a prediction in an unmatched subcategory', () => {
    expect(OBJECT_SUBCATEGORY_EXPLORE.unmatched_a_fp_b).toBe('model_b');
    expect(OBJECT_SUBCATEGORY_EXPLORE.tp_a_unmatched_b).toBe('model_a');
    expect(OBJECT_SUBCATEGORY_EXPLORE.fn_a_fn_b).toBe('both');
  });
});

describe('texts', () => {
  it('reads as the product says', () => {
    expect(COMPARISON_MESSAGES.modelNotFound('m1')).toBe(
      'Model with the identifier "m1" was not found',
    );
    expect(COMPARISON_MESSAGES.perEntityTitle('word')).toBe('Per word breakdown');
    expect(COMPARISON_MESSAGES.perEntityHelp('class')).toBe(
      'For each class, see which model performs better and by how much',
    );
    expect(COMPARISON_MESSAGES.summary(2, 5)).toBe(
      'Model A is better on 2 items, Model B is better on 5 items',
    );
    expect(COMPARISON_MESSAGES.improvementLegend).toHaveLength(5);
  });
});
