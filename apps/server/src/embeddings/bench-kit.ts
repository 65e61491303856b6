// What bench/embeddings needs of the server, exported as `@loupe/server/embeddings-bench`: a
// licensed test app, the repositories (to store a layout directly) and the compute threads.
export { createRepositories } from '../repositories.js';
export { startLicensedApp } from '../testing/test-app.js';
export { ComputePool } from './compute-pool.js';
