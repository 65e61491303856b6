// A process that runs one task on a child and stops it with nothing else to do, for
// child-process.test.ts: stop() must settle (and the process end normally) even though an idle
// child does not keep the process alive.
import { ChildProcessRunner } from './child-process.js';
import type { FixtureTask } from './child-process.fixture.js';
import { childSource } from './worker-source.js';

const runner = new ChildProcessRunner<FixtureTask, unknown>(
  childSource(import.meta.url, 'child-process.fixture'),
  { name: 'test' },
);
await runner.run({ op: 'pid' });
await runner.stop();
process.stdout.write('stopped');
