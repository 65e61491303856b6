// Worker-thread entry of the performance pool (performance-pool.ts): keeps the evaluation data
// it is given (in shared memory, with what @loupe/metrics caches per data) and computes reports,
// curves and slice metrics on it (compute.ts), and comparisons on two of them, off the API's
// event loop.
import { serveTasks } from '../platform/worker-thread.js';
import { compute, computePair } from './compute.js';
import { fromWire, type EvaluationData } from './evaluation-wire.js';
import type { PoolResult, PoolTask } from './performance-pool.js';

const evaluations = new Map<number, EvaluationData>();
/** Evaluations kept at once, as the main thread's cache keeps them; the least recently used goes. */
const KEPT = 2;

serveTasks<PoolTask, PoolResult>(
  (task) => {
    if (task.kind === 'load') {
      // The other evaluation of a pair task is kept: it becomes the most recently used.
      const keep = task.keep === undefined ? undefined : evaluations.get(task.keep);
      if (keep) {
        evaluations.delete(task.keep!);
        evaluations.set(task.keep!, keep);
      }
      evaluations.delete(task.key);
      evaluations.set(task.key, fromWire(task.evaluation));
      while (evaluations.size > KEPT) evaluations.delete(evaluations.keys().next().value!);
      return {};
    }
    if (task.kind === 'pair') {
      const a = evaluations.get(task.key);
      const b = evaluations.get(task.other);
      if (!a || !b) return { missing: true };
      return { value: computePair(a, b, task.task) };
    }
    const evaluation = evaluations.get(task.key);
    if (!evaluation) return { missing: true };
    evaluations.delete(task.key);
    evaluations.set(task.key, evaluation);
    return { value: compute(evaluation, task.task) };
  },
  // Bad inputs (a metric or split the data lacks) fail the same way every time.
  (error) => error instanceof RangeError,
);
