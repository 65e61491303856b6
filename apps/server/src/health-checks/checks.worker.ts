// Entry of the checks process (checks-pool.ts): imports the check definitions by the URLs it is
// given (once), keeps the last snapshot it was sent, and runs each asked-for check on it, a throw
// being that check's error. Checks keep their search state in files of the dataset's folder under
// the task's state folder (check-state.ts) when it names one.
import type { DataLevel } from '@loupe/contracts';
import { serveTasks } from '../platform/worker-thread.js';
import type { CheckSnapshot } from './catalogue/types.js';
import { CheckStateFiles, datasetStateDir } from './check-state.js';
import { SNAPSHOT_MISSING, type ChecksTask, type CheckRunResult } from './checks-pool.js';
import { importDefinitions } from './definition-sources.js';

let held: { key: string; snapshot: CheckSnapshot } | null = null;

serveTasks<ChecksTask, CheckRunResult>(async (task) => {
  if (task.snapshot) held = { key: task.snapshotKey, snapshot: task.snapshot };
  if (held?.key !== task.snapshotKey) throw new Error(SNAPSHOT_MISSING);
  const { snapshot } = held;
  const definitions = await importDefinitions(task.sources);
  const { run } = task;
  // A key may have one definition per medium (corrupt images, corrupt audio): the one offering
  // the run's level for the dataset's task.
  const definition = definitions.find(
    (d) => d.key === run.key && d.levels(snapshot.task).includes(run.level as DataLevel),
  );
  const start = performance.now();
  const ms = () => Math.round(performance.now() - start);
  try {
    if (!definition) throw new Error(`No check definition '${run.key}'.`);
    return {
      outcome: definition.run({
        snapshot,
        params: run.params,
        level: run.level,
        checkId: run.checkId,
        ...(task.stateDir
          ? {
              state: new CheckStateFiles(
                datasetStateDir(task.stateDir, snapshot.datasetId),
                (message) => console.warn(message),
              ),
            }
          : {}),
      }),
      ms: ms(),
    };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error), ms: ms() };
  }
});
