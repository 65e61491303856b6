// The server as a library, for benchmarks that run the real app in their own process against a
// database they filled themselves.
export { buildApp } from './app.js';
export { loadConfig, type Config, type DatabaseConfig } from './config.js';
export { migrateToLatest, openDatabase } from './db/database.js';
export { startEvaluation } from './license/evaluation.js';
export { computeImageMetadata } from './processing/media-metadata.js';
export { thumbnailFromComputed } from './processing/thumbnails.js';
