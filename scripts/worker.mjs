// `npm run worker`: a background-job worker process (docs/scaling.md), with the server's Node.js
// flags. Extra arguments are passed to it.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS, root } from './lib.mjs';

const worker = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, join(root, 'apps/server/dist/cli/worker.js'), ...process.argv.slice(2)],
  { cwd: root, stdio: 'inherit' },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => worker.kill(signal));
}
worker.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
