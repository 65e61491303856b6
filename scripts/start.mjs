// `npm start`: install what is missing, build what is stale, then serve API + web app.
// Extra arguments (`npm start -- --demo`) are passed to the server.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { SERVER_NODE_FLAGS, buildStale, ensureInstalled, root } from './lib.mjs';

ensureInstalled();
buildStale();

const server = spawn(
  process.execPath,
  [...SERVER_NODE_FLAGS, join(root, 'apps/server/dist/main.js'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.kill(signal));
}
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
