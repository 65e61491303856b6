// The explore links of a computed comparison and the explorer's compared items, on hand-built
// evaluation data: which categories get a link, what each filter says, and which explorer ids
// the items of each section get; and the performance thread computing a pair task as here.
import { compareModels, type ClassEvalData, type ObjectEvalData } from '@loupe/metrics';
import { describe, expect, it } from 'vitest';
import type { Evaluation } from '../performance/evaluation-loader.js';
import { computePair } from '../performance/compute.js';
import { shareEvaluation } from '../performance/evaluation-wire.js';
import { PerformancePool } from '../performance/performance-pool.js';
import { comparedItems } from './compared-columns.js';
import { withExploreLinks } from './comparison-links.js';

const context = (metric: string, split = 'all') => ({
  predictions_id_a: 'a',
  predictions_id_b: 'b',
  split,
  metric,
  regression_value_name: null,
});

function evaluation(id: string, data: Evaluation['data'], extra: Partial<Evaluation> = {}) {
  const n = data.kind === 'class' ? data.truth.length : 2;
  return {
    datasetId: 'd',
    predictionSetId: id,
    task: data.kind === 'class' ? 'classification' : 'object_detection',
    dataVersion: 1,
    iouThreshold: 0.5,
    data,
    sampleIds: Array.from({ length: n }, (_, i) => `s${i}`),
    splitOf: new Int32Array(n),
    splitNames: ['train'],
    hasPrediction: new Uint8Array(n).fill(1),
    numMissing: 0,
    objects: null,
    ...extra,
  } satisfies Evaluation;
}

/** truth cat dog cat; A right on s0 and s1, B on s0 and s2. */
const classes = (pred: number[]): ClassEvalData => ({
  kind: 'class',
  classes: ['cat', 'dog'],
  truth: Int32Array.of(0, 1, 0),
  pred: Int32Array.from(pred),
  score: new Float64Array(3).fill(NaN),
  probabilities: null,
});

describe('withExploreLinks', () => {
  it('links each category that has items and leaves the empty ones without', () => {
    const computed = compareModels(
      'classification',
      classes([0, 1, 1]),
      classes([0, 0, 0]),
      Uint32Array.of(0, 1, 2),
      { metric: 'macro_recall', iouThreshold: 0.5 },
    );
    const result = withExploreLinks(computed, context('macro_recall', 'train'));
    const section = result.per_sample!;
    // s0 both right, s1 A right, s2 B right; nobody wrong on both.
    expect(section.both_are_problematic.explore_config).toBeNull();
    expect(section.model_a_is_better.explore_config!.filter).toEqual({
      type: 'string',
      metadata_id: 'comparison.category',
      op: 'in',
      value: ['model_a_is_better'],
    });
    expect(section.distribution.explore_config).toMatchObject({
      filter: null,
      sort_by: 'comparison.delta',
      bin_metadata_id: 'comparison.bin',
      context: context('macro_recall', 'train'),
    });
    // Entities: the class's items of the split.
    const cat = [...result.per_class!.model_a_is_better, ...result.per_class!.model_b_is_better]
      .concat(result.per_class!.both_are_neutral, result.per_class!.both_are_problematic)
      .find((e) => e.entity === 'cat')!;
    expect(cat.explore_config!.filter).toEqual({
      type: 'and',
      children: [
        {
          type: 'or',
          children: [
            { type: 'string', metadata_id: 'label', op: 'in', value: ['cat'] },
            { type: 'string', metadata_id: 'prediction.label', op: 'in', value: ['cat'] },
          ],
        },
        { type: 'string', metadata_id: 'split', op: 'in', value: ['train'] },
      ],
    });
  });
});

describe('comparedItems', () => {
  /** One image, two ground truths; A predicts both (p0, p1), B only the first (q0). */
  const objects = (boxes: number[][]): ObjectEvalData => ({
    kind: 'objects',
    classes: ['car'],
    iouType: 'bbox',
    hasPrediction: Uint8Array.of(1, 1),
    imageSize: Float64Array.of(100, 100, 100, 100),
    gt: {
      image: Int32Array.of(0, 0),
      label: Int32Array.of(0, 0),
      box: Float64Array.of(0, 0, 10, 10, 50, 50, 10, 10),
      rle: [null, null],
      iscrowd: Uint8Array.of(0, 0),
    },
    pred: {
      image: Int32Array.from(boxes, () => 0),
      label: Int32Array.from(boxes, () => 0),
      score: Float64Array.from(boxes, () => 0.9),
      box: Float64Array.from(boxes.flat()),
      rle: boxes.map(() => null),
    },
  });

  it("names objects as the explorer does: ground truths by id, predictions by 'pred:' + id", () => {
    const a = evaluation(
      'a',
      objects([
        [0, 0, 10, 10],
        [50, 50, 10, 10],
      ]),
      { objects: { gtIds: ['g0', 'g1'], predIds: ['p0', 'p1'] } },
    );
    const b = evaluation('b', objects([[0, 0, 10, 10]]), {
      objects: { gtIds: ['g0', 'g1'], predIds: ['q0'] },
    });
    const computed = compareModels('object_detection', a.data, b.data, Uint32Array.of(0, 1), {
      metric: 'mAP_COCO',
      iouThreshold: 0.5,
    });
    const items = comparedItems('k', context('mAP_COCO'), computed, a, b);
    expect(items.groundTruth!.ids).toEqual(['g0', 'g1']);
    // g0 found by both (tp_a_tp_b: neutral), g1 by A only (tp_a_fn_b: A better).
    expect(Array.from(items.groundTruth!.category)).toEqual([2, 0]);
    expect(Array.from(items.groundTruth!.subcategory!)).toEqual([3, 0]);
    // A's p0 pairs with B's q0; A's p1 is alone.
    expect(items.predictionsA!.ids).toEqual(['pred:p0', 'pred:p1']);
    expect(items.predictionsB!.ids).toEqual(['pred:q0']);
    expect(items.samples).toBeNull();
  });

  it('computes a pair task on the performance thread as here, keeping both sets loaded', async () => {
    const a = shareEvaluation(evaluation('a', classes([0, 1, 1])));
    const b = shareEvaluation(evaluation('b', classes([0, 0, 0])));
    const c = shareEvaluation(evaluation('c', classes([1, 1, 1])));
    const task = {
      kind: 'compare',
      split: 'all',
      metric: 'accuracy',
      valueName: null,
      iouThreshold: 0.5,
    } as const;
    const pool = new PerformancePool();
    try {
      await pool.run(a, { kind: 'coverage' }, 'job');
      await pool.run(c, { kind: 'coverage' }, 'job');
      // The thread holds A and C; B comes in and C goes, A is kept for the pair.
      const onThread = await pool.runPair(a, b, task, 'request');
      expect(pool.counts.loads).toBe(3);
      const here = computePair(a, b, task);
      expect(onThread.result).toEqual(here.result);
      expect(Array.from(onThread.items.per_sample!.category)).toEqual(
        Array.from(here.items.per_sample!.category),
      );
      // Both still there: no load for the next pair task.
      await pool.runPair(b, a, task, 'job');
      expect(pool.counts.loads).toBe(3);
    } finally {
      await pool.close();
    }
  });
});
