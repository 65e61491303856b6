// Worker-thread entry of the checks pool (checks-pool.ts): imports the check definitions by the
// URLs it is given (once) and runs each asked-for check on the snapshot, a throw being that
// check's error.
import type { DataLevel } from '@loupe/contracts';
import { serveTasks } from '../platform/worker-thread.js';
import type { ChecksReply, ChecksTask, CheckRunResult } from './checks-pool.js';
import { importDefinitions } from './definition-sources.js';

serveTasks<ChecksTask, ChecksReply>(async (task, progress) => {
  const definitions = await importDefinitions(task.sources);
  // A key may have one definition per medium (corrupt images, corrupt audio): the one offering
  // the run's level for the dataset's task.
  const definitionOf = (key: string, level: DataLevel) =>
    definitions.find((d) => d.key === key && d.levels(task.snapshot.task).includes(level));
  const results: CheckRunResult[] = [];
  for (const [i, run] of task.runs.entries()) {
    const start = performance.now();
    const ms = () => Math.round(performance.now() - start);
    try {
      const definition = definitionOf(run.key, run.level);
      if (!definition) throw new Error(`No check definition '${run.key}'.`);
      results.push({
        outcome: definition.run({
          snapshot: task.snapshot,
          params: run.params,
          level: run.level,
          checkId: run.checkId,
        }),
        ms: ms(),
      });
    } catch (error) {
      results.push({ error: error instanceof Error ? error.message : String(error), ms: ms() });
    }
    progress((i + 1) / task.runs.length);
  }
  return { results };
});
