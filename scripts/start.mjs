// `npm start`: install what is missing, build what is stale, then serve API + web app.
// Extra arguments (`npm start -- --demo`, `--evaluation`) are passed to the server.
import { buildStale, ensureInstalled, serveWithServerFlags } from './lib.mjs';

ensureInstalled();
buildStale();
serveWithServerFlags('apps/server/dist/main.js', process.argv.slice(2));
