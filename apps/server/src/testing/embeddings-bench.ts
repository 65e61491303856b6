// What bench/embeddings needs of the server, exported as `@loupe/server/embeddings-bench`: a
// licensed test app, the repositories (to store a layout directly) and the compute threads.
export { ComputePool } from '../embeddings/compute-pool.js';
export { createRepositories } from '../repositories.js';
export { startLicensedApp } from './test-app.js';
