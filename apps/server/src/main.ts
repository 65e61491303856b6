// Entry point of `npm start`: configuration, database and migrations, then the HTTP server.
// SIGINT/SIGTERM finish requests in flight and close the database before exiting.
import { buildApp } from './app.js';
import { ensureDataDir, loadConfig } from './config.js';
import { migrateToLatest, openDatabase } from './db/database.js';
import { DemoService } from './demo/demo.service.js';
import { describeEvaluation, startEvaluation } from './license/evaluation.js';
import { systemClock } from './platform/clock.js';

async function main(): Promise<void> {
  const config = loadConfig();
  ensureDataDir(config);
  const database = openDatabase(config.database);
  await migrateToLatest(database);
  const { app, runner, services } = await buildApp({ config, database });
  if (config.worker) runner.start();
  const demo = process.argv.includes('--demo');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    await app.close();
    await database.destroy();
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // The explorer tables this process's predecessor used, read back from their files in the
  // background (docs/explore-snapshots.md), up to half the cache's budget.
  void services.explore.prewarm(config.exploreCacheBytes / 2).then(
    (tables) =>
      tables > 0 && app.log.info({ tables }, 'explorer tables read back from their files'),
    (error: unknown) => app.log.warn({ err: error }, 'could not read back the explorer tables'),
  );
  const where = config.database.kind === 'sqlite' ? config.database.path : 'PostgreSQL';
  const url =
    config.publicUrl ?? `http://localhost:${(app.server.address() as { port: number }).port}`;
  console.log(
    `\n  Loupe is running at ${url}\n  Database: ${where}; data directory: ${config.dataDir}\n` +
      `  ${await exposure(config.host, services.setup)}\n`,
  );
  // --demo licenses the instance too, so a newcomer can upload their own data right away.
  if (demo || process.argv.includes('--evaluation')) {
    const evaluation = await startEvaluation(services.license, config.dataDir, systemClock);
    console.log(`  ${describeEvaluation(evaluation)}\n`);
  }
  if (demo) {
    // Seeds in the background so the server answers at once; an instance with data is left alone.
    void (async () => {
      if ((await services.datasets.list()).length > 0) {
        console.log('  --demo: the instance already has datasets; no demo data added.\n');
        return;
      }
      console.log('  --demo: generating the demo datasets…');
      const names = await new DemoService(services, app.log).seed();
      console.log(
        `  --demo: added ${names.length} demo datasets; thumbnails and metadata follow in the background.\n`,
      );
    })().catch((error: unknown) => app.log.error({ err: error }, 'demo seeding failed'));
  }
}

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost']);

/**
 * Who can reach the server, in one line: loopback-only by default; on any other interface, a
 * reminder to put TLS in front and, while setup is open, that the first visitor becomes admin.
 */
async function exposure(host: string, setup: { state(): Promise<string> }): Promise<string> {
  if (LOOPBACK.has(host))
    return `Listening on ${host} only: other machines cannot connect (HOST=0.0.0.0 opens it; read docs/security.md first).`;
  const open =
    (await setup.state()) === 'COMPLETE'
      ? ''
      : ' Setup is not complete: the first visitor creates the admin account, so finish it now.';
  return `Listening on ${host}: reachable from other machines; serve it behind TLS (docs/security.md).${open}`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
