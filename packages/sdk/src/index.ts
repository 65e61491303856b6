// @loupe/sdk: the TypeScript client and the `loupe` command line.
export { runCli, commands } from './cli/main.js';
export type { Command } from './cli/command.js';
export type { CliIo } from './cli/io.js';
export { CliError } from './cli/errors.js';
export { LoupeClient, DatasetHandle, PredictionSetHandle, contentTypeOf } from './client/client.js';
export type {
  Media,
  SampleToUpload,
  PredictionToUpload,
  AttributionToUpload,
  UploadOptions,
  FeatureUploadOptions,
  Progress,
} from './client/client.js';
export { LoupeError } from './client/errors.js';
export { OutputNotEmpty } from './client/export.js';
export type { ExportItemsOptions, ExportOptions, ExportResult } from './client/export.js';
export type { HttpOptions } from './client/http.js';
export { PERFORMANCE_POLL_MS, PERFORMANCE_TIMEOUT_MS } from './client/performance.js';
export type { Performance, PerformanceOptions, PerformanceProgress } from './client/performance.js';
export { COMPARISON_POLL_MS, COMPARISON_TIMEOUT_MS } from './client/compare.js';
export type { Comparison, CompareOptions, ComparisonProgress } from './client/compare.js';
