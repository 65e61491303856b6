// Installs what is missing and builds what is stale; used before any command that runs built code.
import { buildStale, ensureInstalled } from './lib.mjs';

ensureInstalled();
buildStale();
