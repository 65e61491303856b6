// What every side-by-side case shares: timing as reference.py times (p50 of repeated runs after a
// warm-up, wall and process CPU), a temporary folder for the data both sides read, the Python
// interpreter that has the reference library, and one printed line per measured step.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface Times {
  wall_ms: number;
  cpu_ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** One call's wall and CPU (user + system, all threads) milliseconds. */
export function once<T>(fn: () => T): Times & { result: T } {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = fn();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, wall_ms: wall, cpu_ms: (used.user + used.system) / 1000 };
}

/** p50 wall and CPU of `runs` calls after one warm-up call (none with `warm: false`). */
export function timed<T>(
  fn: () => T,
  runs: number,
  options: { warm?: boolean } = {},
): Times & { result: T } {
  let result = options.warm === false ? (undefined as T) : fn();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < runs; r++) {
    const t = once(fn);
    result = t.result;
    walls.push(t.wall_ms);
    cpus.push(t.cpu_ms);
  }
  return { result, wall_ms: median(walls), cpu_ms: median(cpus) };
}

/** A fresh folder for one case's files, removed by `dispose`. */
export function caseFolder(name: string): { dir: string; dispose(): void } {
  const dir = mkdtempSync(join(os.tmpdir(), `loupe-compare-${name}-`));
  return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Writes a typed array's own bytes (not its whole buffer) to `dir/name`. */
export function writeArray(dir: string, name: string, array: ArrayBufferView): void {
  writeFileSync(join(dir, name), new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
}

/** The typed array in `dir/name`, in a buffer of its own (a file's Buffer may sit at an offset of a shared one). */
export function readArray<T>(dir: string, name: string, Type: new (buffer: ArrayBuffer) => T): T {
  const bytes = readFileSync(join(dir, name));
  return new Type(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
  );
}

const here = fileURLToPath(new URL('.', import.meta.url));
const found = new Map<string, string | null>();

/**
 * The first interpreter that imports `module`: $PYTHON, then Debian's /usr/bin/python3 (where
 * apt-get puts python3-pandas, -sklearn, -faiss), then whatever `python3` is on the PATH.
 */
export function pythonWith(module: string): string | null {
  if (found.has(module)) return found.get(module)!;
  const candidates = [process.env.PYTHON, '/usr/bin/python3', 'python3'].filter(
    (p): p is string => !!p && (p === 'python3' || existsSync(p)),
  );
  let chosen: string | null = null;
  for (const python of [...new Set(candidates)]) {
    const probe = spawnSync(python, ['-c', `import ${module}`], { stdio: 'ignore' });
    if (probe.status === 0) {
      chosen = python;
      break;
    }
  }
  found.set(module, chosen);
  return chosen;
}

/** What to install, for the modules reference.py imports. */
const PACKAGES: Record<string, string> = {
  pandas: 'pandas (python3-pandas)',
  numpy: 'numpy (python3-numpy)',
  faiss: 'faiss (python3-faiss)',
  sklearn: 'scikit-learn (python3-sklearn)',
  umap: 'umap-learn',
  pycocotools: 'pycocotools',
};

export type Reference<T> = ({ library: string } & T) | { missing: string };

/** Runs reference.py's `name` case on `dir` (spec.json written first) with the first Python that has `module`. */
export function runReference<T>(
  name: string,
  module: string,
  dir: string,
  spec: object,
): Reference<T> {
  const python = pythonWith(module);
  if (!python) return { missing: PACKAGES[module] ?? module };
  writeFileSync(join(dir, 'spec.json'), JSON.stringify(spec));
  const out = spawnSync(python, [join(here, 'reference.py'), name, dir], {
    encoding: 'utf8',
    maxBuffer: 1 << 26,
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  });
  if (out.status !== 0) throw new Error(`reference.py ${name} failed:\n${out.stderr}`);
  const answer = JSON.parse(out.stdout.trim().split('\n').pop()!) as Reference<T>;
  return 'missing' in answer ? { missing: PACKAGES[answer.missing] ?? answer.missing } : answer;
}

export function ms(value: number): string {
  if (value >= 10_000) return `${(value / 1000).toFixed(1)} s`;
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return value >= 10 ? `${value.toFixed(0)} ms` : `${value.toFixed(2)} ms`;
}

/** One row of the report: both times, the ratio (reference ÷ Loupe: above 1, Loupe is faster) and the check. */
export interface Row {
  step: string;
  loupe: Times;
  reference?: Times & { library: string };
  missing?: string;
  quality: string;
}

export const rows: Row[] = [];

export function report(row: Row): void {
  rows.push(row);
  const { step, loupe, reference } = row;
  const head = `${step}\n  Loupe      ${ms(loupe.wall_ms).padStart(9)} wall, ${ms(loupe.cpu_ms).padStart(9)} CPU`;
  if (!reference) {
    console.log(
      `${head}\n  reference  skipped: ${row.missing} is not installed\n  check      ${row.quality}`,
    );
    return;
  }
  const ratio = (a: number, b: number) => (b > 0 ? `${(a / b).toFixed(2)}×` : '–');
  console.log(
    `${head}\n  reference  ${ms(reference.wall_ms).padStart(9)} wall, ${ms(reference.cpu_ms).padStart(9)} CPU  (${reference.library})` +
      `\n  ratio      ${ratio(reference.wall_ms, loupe.wall_ms)} wall, ${ratio(reference.cpu_ms, loupe.cpu_ms)} CPU (reference ÷ Loupe; above 1 = Loupe faster)` +
      `\n  check      ${row.quality}`,
  );
}
