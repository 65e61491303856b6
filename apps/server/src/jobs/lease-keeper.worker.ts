// Worker-thread entry of the lease keeper (lease-keeper.ts): renews the leases of the jobs its
// runner holds every third of a lease, on this thread's own event loop and database connection,
// as long as the main event loop has shown life within the allowed stall.
import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from '../db/database.js';
import type { KeeperReport, LeaseKeeperData, LeaseKeeperMessage } from './lease-keeper.js';
import { JobsRepository } from './jobs.repository.js';

const port = parentPort!;
const { database: config, leaseMs, maxStallMs, tick } = workerData as LeaseKeeperData;
const database = openDatabase(config);
const jobs = new JobsRepository(database.db, database.dialect);
const lastTick = new BigInt64Array(tick);
/** Job id → the worker id holding it. */
const held = new Map<string, string>();
let renewing = false;
/** Whether the current stall was reported already. */
let stallReported = false;

port.on('message', (message: LeaseKeeperMessage) => {
  if ('hold' in message) held.set(message.hold.id, message.hold.workerId);
  else held.delete(message.release);
});

async function renew(): Promise<void> {
  if (renewing || held.size === 0) return;
  // A main loop silent for longer than the allowed stall is hung: let its leases lapse.
  const silentMs = Date.now() - Number(Atomics.load(lastTick, 0));
  if (silentMs > maxStallMs) {
    if (!stallReported)
      port.postMessage({
        stalled: { ms: silentMs, jobs: [...held.keys()] },
      } satisfies KeeperReport);
    stallReported = true;
    return;
  }
  stallReported = false;
  renewing = true;
  try {
    for (const [id, workerId] of [...held]) {
      const now = Date.now();
      // False: finished, retried or taken over; the runner learns it from its own heartbeat.
      if (!(await jobs.heartbeat(id, workerId, now + leaseMs, null, now))) held.delete(id);
    }
  } catch {
    // The database is unreachable for now; the next turn tries again.
  } finally {
    renewing = false;
  }
}

setInterval(() => void renew(), leaseMs / 3);
port.postMessage({ ready: true } satisfies KeeperReport);
