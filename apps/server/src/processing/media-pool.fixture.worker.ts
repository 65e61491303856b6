// A stand-in for media.worker.ts in media-pool.test.ts: answers after a short wait, or fails the
// way a hostile file could make the real one fail, as the task's `ref` says.
import { parentPort } from 'node:worker_threads';
import type { MediaTask, WorkerMessage } from './media-pool.js';

const port = parentPort!;
const hoard: number[][] = [];

port.on('message', ({ id, task }: { id: number; task: MediaTask }) => {
  const [what, value] = task.ref.split(':');
  if (what === 'heap') for (;;) hoard.push(Array.from({ length: 1e5 }, Math.random));
  if (what === 'loop') for (;;);
  if (what === 'error') {
    port.postMessage({ id, error: `refused ${value}` } satisfies WorkerMessage);
    return;
  }
  setTimeout(
    () =>
      port.postMessage({
        id,
        result: { values: { value: value ?? null, bytes: task.bytes.byteLength } },
      } satisfies WorkerMessage),
    20,
  );
});
port.postMessage({ ready: true } satisfies WorkerMessage);
