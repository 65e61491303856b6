import type { CheckParams, DataLevel, Evidence, TaskType } from '@loupe/contracts';
import { describe, expect, it } from 'vitest';
import { balanceChecks } from './balance.js';
import { testSnapshot } from './test-snapshot.js';
import type { CheckDefinition, CheckSnapshot, ParamContext } from './types.js';

const context: ParamContext = { features: [], defaultFeature: null, classes: [], splits: [] };

function check(key: string): CheckDefinition {
  const found = balanceChecks.find((c) => c.key === key);
  if (!found) throw new Error(`no check ${key}`);
  return found;
}

/**
 * Samples from a table: counts[split][class] items of each, then `extra` samples without a label
 * (or without a split).
 */
function snapshot(
  splitNames: string[],
  classes: string[],
  counts: number[][],
  task: TaskType = 'classification',
): CheckSnapshot {
  const split: number[] = [];
  const label: number[] = [];
  counts.forEach((row, s) =>
    row.forEach((count, c) => {
      for (let i = 0; i < count; i++) {
        split.push(s);
        label.push(c);
      }
    }),
  );
  // One unlabelled sample and one without a split: neither is checked.
  split.push(0, -1);
  label.push(-1, 0);
  return testSnapshot({ task, classes, label, split, splitNames });
}

function run(key: string, snap: CheckSnapshot, overrides: CheckParams = {}) {
  const definition = check(key);
  const level: DataLevel = definition.levels(snap.task)[0]!;
  const params = { ...definition.params(context), ...overrides };
  return definition.run({ snapshot: snap, params, level, checkId: `${key}.${level}` });
}

function table(evidence: Evidence[]) {
  const found = evidence.find((e) => e.type === 'table_per_split');
  if (found?.type !== 'table_per_split') throw new Error('no table');
  return found;
}

// Splits (ascending): test, train. Classes: cat, dog, bird.
const SPLITS = ['test', 'train'];
const CLASSES = ['cat', 'dog', 'bird'];

describe('class balance checks', () => {
  it('are offered to classification tasks at their sample level', () => {
    for (const definition of balanceChecks) {
      expect(definition.levels('classification')).toEqual(['image']);
      expect(definition.levels('audio_classification')).toEqual(['audio']);
      expect(definition.levels('object_detection')).toEqual([]);
      expect(definition.group).toBe('Class Balance');
    }
  });

  it('fails an imbalanced split with a table of counts and shares and a recommendation', () => {
    // train: bird 5 / cat 100 = 0.05 < 0.1; test: 8 / 20 = 0.4.
    const snap = snapshot(SPLITS, CLASSES, [
      [20, 10, 8],
      [100, 50, 5],
    ]);
    const outcome = run('class_imbalance', snap);
    expect(outcome.verdict).toBe('fail');
    expect(outcome.checked).toBe(193);
    expect(outcome.flagged.ids).toEqual([]);
    expect(table(outcome.evidence)).toEqual({
      type: 'table_per_split',
      description: expect.stringContaining('below 0.1 of its largest') as string,
      rows: ['cat', 'dog', 'bird'],
      splits: [
        {
          split_name: 'test',
          columns: [
            { name: 'Count', values: [20, 10, 8] },
            { name: 'Share', values: [0.5263, 0.2632, 0.2105] },
          ],
        },
        {
          split_name: 'train',
          columns: [
            { name: 'Count', values: [100, 50, 5] },
            { name: 'Share', values: [0.6452, 0.3226, 0.0323] },
          ],
        },
      ],
      flagged_rows: ['bird'],
    });
    expect(outcome.recommendation).toEqual({
      type: 'text_recommendation',
      value: ['Collect or upload more items of bird for train'],
    });
    // A looser ratio passes.
    const loose = run('class_imbalance', snap, {
      ratio: { type: 'float', label: 'x', value: 0.04 },
    });
    expect(loose.verdict).toBe('pass');
    expect(loose.recommendation).toBeNull();
  });

  it("fails a split whose label distribution is far from train's", () => {
    // test (½, ½, 0) vs train (100, 50, 5)/155: total variation distance 0.177 > 0.1.
    const snap = snapshot(SPLITS, CLASSES, [
      [20, 20, 0],
      [100, 50, 5],
    ]);
    const outcome = run('split_label_shift', snap);
    expect(outcome.verdict).toBe('fail');
    expect(outcome.summary).toContain('test (distance 0.177)');
    // dog moved most (+0.177 share), cat by more than the limit too (−0.145); bird by 0.032.
    expect(table(outcome.evidence).flagged_rows).toEqual(['cat', 'dog']);
    expect(outcome.recommendation).toEqual({
      type: 'text_recommendation',
      value: ['Re-split the dataset so that every split has the same label distribution'],
    });
    const similar = snapshot(SPLITS, CLASSES, [
      [19, 11, 1],
      [100, 50, 5],
    ]);
    expect(run('split_label_shift', similar).verdict).toBe('pass');
  });

  it('compares with the largest split when there is no train split', () => {
    // 'a' (10 items, all cat) against 'b' (40 items, half cat, half dog): distance 0.5.
    const snap = snapshot(
      ['a', 'b'],
      ['cat', 'dog'],
      [
        [10, 0],
        [20, 20],
      ],
    );
    const outcome = run('split_label_shift', snap);
    expect(outcome.summary).toBe("The label distribution of a (distance 0.500) differs from b's");
  });

  it('flags the items of classes rare in a split, counting absent classes', () => {
    // test lacks bird (0 < 10); train has 3 birds.
    const snap = snapshot(SPLITS, CLASSES, [
      [20, 12, 0],
      [30, 40, 3],
    ]);
    const outcome = run('rare_class', snap);
    expect(outcome.verdict).toBe('fail');
    // Rows: test cat 0–19, dog 20–31; train cat 32–61, dog 62–101, bird 102–104.
    expect(outcome.flagged).toEqual({
      ids: ['s102', 's103', 's104'],
      values: { class: ['bird', 'bird', 'bird'], count: [3, 3, 3] },
    });
    expect(outcome.summary).toBe(
      '2 classes have fewer than 10 items in a split: bird in test (0), bird in train (3)',
    );
    expect(table(outcome.evidence).flagged_rows).toEqual(['bird']);
    expect(outcome.recommendation).toEqual({
      type: 'text_recommendation',
      value: [
        'Collect or upload more items of bird for test',
        'Collect or upload more items of bird for train',
      ],
    });
    const lenient = run('rare_class', snap, {
      min_count: { type: 'int', label: 'x', value: 3, min: 1, max: 100 },
    });
    expect(lenient.flagged.ids).toEqual([]);
    expect(lenient.verdict).toBe('fail'); // bird is still absent from test
    const none = run('rare_class', snap, {
      min_count: { type: 'int', label: 'x', value: 0, min: 0, max: 100 },
    });
    expect(none.verdict).toBe('pass');
  });
});
