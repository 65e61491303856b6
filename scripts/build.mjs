// `npm run build`: install what is missing, then build everything that is stale.
import { buildStale, ensureInstalled } from './lib.mjs';

ensureInstalled();
buildStale();
console.log('✔ Build is up to date.');
