// `loupe worker` (npm run worker): a process that only runs background jobs, for scaling out.
// Give it the same DATABASE_URL, blob store and LOUPE_SECRET_KEY as the API processes, and start
// those with LOUPE_WORKER=false. Stops cleanly on SIGINT/SIGTERM after the job in hand.
import pino from 'pino';
import { ensureDataDir, loadConfig } from '../config.js';
import { migrateToLatest, openDatabase } from '../db/database.js';
import { DEFAULT_RUNNER_OPTIONS, JobRunner } from '../jobs/job-runner.js';
import { LeaseKeeper } from '../jobs/lease-keeper.js';
import { LogBuffer } from '../platform/log-buffer.js';
import { LOG_REDACTION, isPretty, prettyDestination } from '../platform/log-format.js';
import { createServices } from '../services.js';

async function main(): Promise<void> {
  const config = loadConfig();
  ensureDataDir(config);
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  const log = pino(
    { level: config.logLevel, base: { role: 'worker' }, redact: LOG_REDACTION },
    isPretty(config.logFormat, process.stdout) ? prettyDestination(process.stdout) : process.stdout,
  );
  const services = createServices(config, database, new LogBuffer(), log);
  const runner = new JobRunner(services.jobsRepository, services.handlers, Date.now, log, {
    ...DEFAULT_RUNNER_OPTIONS,
    concurrency: config.workerConcurrency,
    leaseKeeper: LeaseKeeper.for(config.database, DEFAULT_RUNNER_OPTIONS.leaseMs, log),
  });
  runner.start();
  log.info({ worker: runner.workerId }, 'worker started');
  const stop = async () => {
    log.info('worker stopping after the job in hand');
    await runner.stop();
    await database.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
