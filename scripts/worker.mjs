// `npm run worker`: a background-job worker process (docs/scaling.md), with the server's Node.js
// flags. Extra arguments are passed to it.
import { serveWithServerFlags } from './lib.mjs';

serveWithServerFlags('apps/server/dist/cli/worker.js', process.argv.slice(2));
