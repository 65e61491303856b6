// How to start a worker thread whose entry module sits beside the module that starts it: the
// built .js directly, or, from TypeScript sources (tests, tsx), an eval'd stub that registers
// tsx in the thread first and resolves workspaces to their sources (`loupe-src`).
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

export interface WorkerSource {
  source: string;
  eval: boolean;
  execArgv: string[];
}

/** `entry` is the worker's file name without extension, e.g. 'media.worker'. */
export function workerSource(callerUrl: string, entry: string): WorkerSource {
  const caller = fileURLToPath(callerUrl);
  const folder = dirname(caller);
  if (caller.endsWith('.js'))
    return { source: join(folder, `${entry}.js`), eval: false, execArgv: [] };
  const file = join(folder, `${entry}.ts`);
  return {
    source: `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); });`,
    eval: true,
    execArgv: ['--conditions=loupe-src'],
  };
}

/**
 * How to start a child process (child-process.ts) whose entry module sits beside the caller: the
 * built .js, or from TypeScript sources the .ts with tsx's loader and workspaces' sources.
 */
export function childSource(
  callerUrl: string,
  entry: string,
): { file: string; execArgv: string[] } {
  const caller = fileURLToPath(callerUrl);
  const folder = dirname(caller);
  if (caller.endsWith('.js')) return { file: join(folder, `${entry}.js`), execArgv: [] };
  return {
    file: join(folder, `${entry}.ts`),
    execArgv: ['--conditions=loupe-src', '--import', 'tsx'],
  };
}
