import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ChildProcessRunner } from './child-process.js';
import type { FixtureTask } from './child-process.fixture.js';
import { FileArray, revive, spill } from './task-files.js';
import { childSource } from './worker-source.js';
import { WorkerTaskError } from './worker-thread.js';

const runners: ChildProcessRunner<FixtureTask, unknown>[] = [];
const runner = (heapMb?: number) => {
  const created = new ChildProcessRunner<FixtureTask, unknown>(
    childSource(import.meta.url, 'child-process.fixture'),
    { name: 'test', ...(heapMb ? { heapMb } : {}), spillBytes: 1024 },
  );
  runners.push(created);
  return created;
};

afterEach(async () => {
  await Promise.all(runners.splice(0).map((r) => r.stop()));
});

describe('spill and revive', () => {
  it('sends large typed arrays through files, small ones and other values as they are', () => {
    const folder = mkdtempSync(join(tmpdir(), 'spill-test-'));
    try {
      const shared = new Float32Array(new SharedArrayBuffer(4096)).fill(1.5);
      const view = new Float64Array(1000).map((_, i) => i).subarray(100, 400);
      const task = {
        features: { a: { data: shared, name: 'a' } },
        columns: [view, new Int32Array(3)],
        ids: ['x', 'y'],
        when: new Date(0),
      };
      const spilled = spill(task, folder, 1024) as typeof task;
      expect(readdirSync(folder)).toHaveLength(2);
      // The input is left as it was.
      expect(task.features.a.data).toBe(shared);
      expect(ArrayBuffer.isView(spilled.features.a.data)).toBe(false);
      expect(spilled.columns[1]).toBe(task.columns[1]);
      const back = revive(structuredClone(spilled)) as typeof task;
      expect(readdirSync(folder)).toHaveLength(0);
      expect(back.features.a.data).toEqual(new Float32Array(1024).fill(1.5));
      expect(back.features.a.data.buffer).toBeInstanceOf(ArrayBuffer);
      expect([...back.columns[0]!]).toEqual(Array.from({ length: 300 }, (_, i) => i + 100));
      expect(back.ids).toEqual(['x', 'y']);
      expect(back.when).toEqual(new Date(0));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('FileArray', () => {
  it('is written in place, read back in parts, sent as a link each task removes, then removed', () => {
    const folder = mkdtempSync(join(tmpdir(), 'file-array-test-'));
    const tasks = mkdtempSync(join(tmpdir(), 'file-array-tasks-'));
    try {
      const array = new FileArray(join(folder, 'a.f32'), 'Float32Array', 6);
      array.write(8, new Uint8Array(new Float32Array([2, 3]).buffer));
      array.write(20, new Uint8Array(new Float32Array([5]).buffer));
      expect(() => array.write(20, new Uint8Array(8))).toThrow(RangeError);
      // Each part is copied as it comes: the generator reuses one buffer.
      const parts = Array.from(array.parts(10), (part) => [...part]);
      expect(parts.map((part) => part.length)).toEqual([10, 10, 4]);
      expect([...new Float32Array(new Uint8Array(parts.flat()).buffer)]).toEqual([
        0, 0, 2, 3, 0, 5,
      ]);
      // Two tasks, two links: each is read into the child's memory and removed with its task.
      for (const prefix of ['x', 'y']) {
        const spilled = spill({ data: array }, tasks, 1 << 20, prefix);
        expect(readdirSync(tasks)).toEqual([`${prefix}0.bin`]);
        const back = revive(structuredClone(spilled)) as { data: Float32Array };
        expect([...back.data]).toEqual([0, 0, 2, 3, 0, 5]);
        expect(readdirSync(tasks)).toEqual([]);
      }
      expect(existsSync(array.file)).toBe(true);
      array.remove();
      expect(existsSync(array.file)).toBe(false);
      expect(() => [...array.parts()]).toThrow('removed');
    } finally {
      rmSync(folder, { recursive: true, force: true });
      rmSync(tasks, { recursive: true, force: true });
    }
  });
});

describe('ChildProcessRunner', () => {
  it('runs a task in a child, with progress, large arrays arriving whole', async () => {
    const child = runner();
    const values = new Float32Array(new SharedArrayBuffer(4 * 10_000)).fill(0.5);
    const progress: number[] = [];
    const result = await child.run(
      { op: 'sum', values, labels: ['a', 'b', 'c'] },
      { onProgress: (f) => progress.push(f) },
    );
    expect(result).toEqual({ sum: 5000, length: 10_000, shared: false, labels: 3 });
    expect(progress).toEqual([0.5]);
    expect(await child.run({ op: 'pid' })).not.toBe(process.pid);
  });

  it('answers large result arrays through the task folder, whole, and leaves no files', async () => {
    const child = runner();
    const before = new Set(readdirSync(tmpdir()).filter((f) => f.startsWith('loupe-task-')));
    // What the child sends back, as it crosses the channel, seen before the runner reads the
    // files back in place (its child process is private: the test looks at the wire).
    child.warm();
    const replies: Record<string, unknown>[] = [];
    (child as unknown as { child: ChildProcess }).child.prependListener('message', (reply) =>
      replies.push({ ...(reply as { result: Record<string, unknown> }).result }),
    );
    // 8 MB: above the 4 MB from which a result array travels by file.
    const result = (await child.run({ op: 'make', length: 1_000_000 })) as {
      values: Float64Array;
      small: number;
    };
    const small = (await child.run({ op: 'make', length: 1_000 })) as { values: Float64Array };
    expect(small.values.length).toBe(1_000);
    const [large, smallReply] = replies;
    // The large array crossed as a reference to a file, the small one as itself.
    expect(ArrayBuffer.isView(large!['values'])).toBe(false);
    expect(large!['values']).toMatchObject({ type: 'Float64Array', length: 1_000_000 });
    expect(ArrayBuffer.isView(smallReply!['values'])).toBe(true);
    expect(result.small).toBe(7);
    expect(result.values).toBeInstanceOf(Float64Array);
    expect(result.values.length).toBe(1_000_000);
    expect([result.values[0], result.values[999_999]]).toEqual([0, 499_999.5]);
    const after = readdirSync(tmpdir()).filter(
      (f) => f.startsWith('loupe-task-') && !before.has(f),
    );
    expect(after).toEqual([]);
  });

  it('kills a child that overruns its deadline, even inside native code, and starts afresh', async () => {
    const child = runner();
    const first = await child.run({ op: 'pid' });
    for (const op of ['spin', 'native'] as const) {
      let started = false;
      const run = child.run(
        { op },
        {
          deadline: { ms: op === 'native' ? 5_000 : 500, message: 'Too slow.' },
          onProgress: () => (started = true),
        },
      );
      await expect(run, op).rejects.toThrow(new WorkerTaskError('Too slow.', true));
      if (op === 'native') expect(started).toBe(true);
    }
    // This process survived; the next task runs on a new child.
    const second = await child.run({ op: 'pid' });
    expect(second).not.toBe(first);
    expect(child.generation).toBe(3);
  }, 30_000);

  it('fails the task of a child that exits or runs out of heap, and leaves no files', async () => {
    const child = runner(64);
    await expect(child.run({ op: 'exit' })).rejects.toThrow(
      'The test process stopped (exit code 3).',
    );
    await expect(child.run({ op: 'heap' })).rejects.toThrow(
      'The test process ran out of memory (its limit is 64 MB).',
    );
    const values = new Float32Array(10_000);
    expect(await child.run({ op: 'sum', values, labels: [] })).toMatchObject({ sum: 0 });
    const left = readdirSync(tmpdir()).filter((f) => f.startsWith('loupe-task-'));
    for (const folder of left) expect(existsSync(join(tmpdir(), folder, '0.bin'))).toBe(false);
  }, 30_000);
});

it('stop() settles in a process with nothing else to do, which then ends normally', () => {
  const script = fileURLToPath(new URL('./child-process.stop.fixture.ts', import.meta.url));
  const ran = spawnSync(process.execPath, ['--conditions=loupe-src', '--import', 'tsx', script], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect({ status: ran.status, stdout: ran.stdout }).toEqual({ status: 0, stdout: 'stopped' });
}, 40_000);
