// A child entry for child-process.test.ts: echoes arrays, makes a large one, spins, searches in
// native code, exits or exhausts its heap, as the task says.
import { createAnnIndex } from '@loupe/analysis';
import { serveTasks } from './worker-thread.js';

export type FixtureTask =
  | { op: 'sum'; values: Float32Array; labels: string[] }
  | { op: 'spin' }
  | { op: 'native' }
  | { op: 'exit' }
  | { op: 'heap' }
  | { op: 'pid' }
  | { op: 'make'; length: number };

serveTasks<FixtureTask, unknown>((task, progress) => {
  switch (task.op) {
    case 'sum': {
      progress(0.5);
      let sum = 0;
      for (const value of task.values) sum += value;
      return {
        sum,
        length: task.values.length,
        shared: task.values.buffer instanceof SharedArrayBuffer,
        labels: task.labels.length,
      };
    }
    case 'spin':
      for (;;);
    case 'native': {
      // Searches until killed: the server must survive a child ended inside native code.
      const dimension = 16;
      const count = 20_000;
      const vectors = new Float32Array(count * dimension).map((_, i) => Math.sin(i * 12.9898));
      const index = createAnnIndex({ dimension, metric: 'euclidean', threads: 1 });
      index.add(
        Array.from({ length: count }, (_, i) => i),
        vectors,
      );
      progress(0.5);
      for (;;) index.searchMany(vectors, 10);
    }
    case 'exit':
      return process.exit(3);
    case 'heap': {
      const kept: number[][] = [];
      for (;;) kept.push(Array.from({ length: 100_000 }, (_, i) => i + kept.length));
    }
    case 'pid':
      return process.pid;
    case 'make':
      return { values: Float64Array.from({ length: task.length }, (_, i) => i * 0.5), small: 7 };
  }
});
