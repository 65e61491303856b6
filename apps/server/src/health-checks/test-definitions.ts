// Tiny check definitions for the framework's tests (health-checks.int.test.ts): each reads one
// declared input and flags items by a rule simple enough to work out by hand. The checks process
// imports this module by URL, as it imports the product's catalogue.
import type { CheckDefinition, CheckOutcome, CheckRunInput } from './catalogue/types.js';

const base = {
  description: () => ['A test check.'],
  configDescription: 'A test check.',
  levels: (task: string) => (task === 'classification' ? ['image' as const] : []),
  fields: [],
  requires: {},
} satisfies Partial<CheckDefinition>;

/** The flagged samples of a predicate over sample rows. */
function flag(
  input: CheckRunInput,
  keep: (row: number) => boolean,
  score?: (row: number) => number,
): CheckOutcome {
  const ids: string[] = [];
  const scores: number[] = [];
  input.snapshot.samples.ids.forEach((id, row) => {
    if (!keep(row)) return;
    ids.push(id);
    scores.push(score ? score(row) : 1);
  });
  return {
    checked: input.snapshot.samples.ids.length,
    flagged: { ids, values: score ? { score: scores } : {} },
    summary: '{n} flagged items',
    preview: {
      sort_by: [{ name: 'score', direction: 'descending' as const }],
      visible_metadata_ids: ['score', 'split'],
    },
    evidence: [],
    recommendation: {
      type: 'actions' as const,
      actions: [
        {
          type: 'delete' as const,
          suggestions: [{ id: 'delete', name: 'Delete', item_ids: ids }],
        },
      ],
    },
    is_approximate: false,
  };
}

export const testChecks: CheckDefinition[] = [
  {
    ...base,
    key: 'test_split',
    group: 'Outliers',
    name: () => 'Test split',
    order: 1,
    inputs: ['split'],
    fields: [{ name: 'score', label: 'Score', type: 'numeric' }],
    // Flags the samples of split 'bad' when there are at least `min_count` of them.
    params: () => ({
      min_count: { type: 'int', label: 'Minimum count', value: 1, min: 0, max: 100 },
      ratio: { type: 'float', label: 'Ratio', value: 0.5, min: 0, max: 1 },
    }),
    run(input) {
      const { split, splitNames } = input.snapshot.samples;
      const bad = splitNames.indexOf('bad');
      const count = split.filter((s) => s === bad).length;
      const min = (input.params.min_count as { value: number }).value;
      return flag(
        input,
        (row) => bad >= 0 && split[row] === bad && count >= min,
        (row) => row,
      );
    },
  },
  {
    ...base,
    key: 'test_label',
    group: 'Label Quality',
    name: () => 'Test label',
    order: 2,
    inputs: ['label'],
    // Flags the samples labelled 'cat'.
    params: () => ({}),
    run(input) {
      const cat = input.snapshot.classes.indexOf('cat');
      return flag(input, (row) => input.snapshot.samples.label[row] === cat);
    },
  },
  {
    ...base,
    key: 'test_model',
    group: 'Label Quality',
    name: () => 'Test model',
    order: 3,
    requires: { predictions: 'probabilities' },
    inputs: ['label', 'predictions'],
    // Flags the samples whose most probable class is not their label.
    params: () => ({}),
    run(input) {
      const { predictions, classes, samples } = input.snapshot;
      const k = classes.length;
      const probs = predictions!.probabilities!;
      return flag(input, (row) => {
        let best = 0;
        for (let c = 1; c < k; c++) if (probs[row * k + c]! > probs[row * k + best]!) best = c;
        return samples.label[row]! >= 0 && best !== samples.label[row];
      });
    },
  },
  {
    ...base,
    key: 'test_metadata',
    group: 'Image Quality',
    name: () => 'Test metadata',
    order: 4,
    requires: { metadata: ['image.not_there'] },
    inputs: [{ metadata: 'image.not_there' }],
    params: () => ({}),
    run: (input) => flag(input, () => false),
  },
  {
    ...base,
    key: 'test_error',
    group: 'Image Quality',
    name: () => 'Test error',
    order: 5,
    inputs: [],
    params: () => ({}),
    run() {
      throw new Error('The test check failed on purpose.');
    },
  },
];

/**
 * Checks that bring the checks process down (checks-pool.test.ts): one ends the process as a
 * native crash would, one never returns.
 */
export const failingChecks: CheckDefinition[] = [
  {
    ...base,
    key: 'test_abort',
    group: 'Outliers',
    name: () => 'Test abort',
    order: 1,
    inputs: [],
    params: () => ({}),
    run() {
      process.abort();
    },
  },
  {
    ...base,
    key: 'test_spin',
    group: 'Outliers',
    name: () => 'Test spin',
    order: 2,
    inputs: [],
    params: () => ({}),
    run() {
      for (;;);
    },
  },
  { ...testChecks[1]!, order: 3 },
];

/**
 * A check keeping state between runs (check-state.int.test.ts): it keeps the ids it has seen and
 * flags the samples it had not seen before (all of them on a full run).
 */
export const keptStateChecks: CheckDefinition[] = [
  {
    ...base,
    key: 'test_kept',
    group: 'Outliers',
    name: () => 'Test kept',
    order: 1,
    inputs: ['label'],
    params: () => ({}),
    run(input) {
      const previous = input.state?.read('test-kept');
      const seen = new Set(Array.isArray(previous?.ids) ? previous.ids : []);
      input.state?.write('test-kept', { ids: [...input.snapshot.samples.ids], runs: 1 });
      return flag(input, (row) => !seen.has(input.snapshot.samples.ids[row]!));
    },
  },
];
