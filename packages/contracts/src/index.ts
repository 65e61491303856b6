// The one contract between server, web app and SDKs: zod schemas and their types.
export * from './errors.js';
export * from './bounded.js';
export * from './validation.js';
export * from './users.js';
export * from './auth.js';
export * from './license.js';
export * from './settings.js';
export * from './datasets.js';
export * from './task-traits.js';
export * from './upload-rows.js';
export * from './upload-protocol.js';
export * from './activities.js';
export * from './explore.js';
export * from './embeddings.js';
export * from './curation.js';
export * from './performance.js';
export * from './comparison.js';
export * from './health-checks.js';
export * from './attributions.js';

// Validation messages name a missing field plainly ("Required") instead of zod's type jargon.
import { z } from 'zod';
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? 'Required' : undefined,
});
export * from './row-encoding.js';
export * from './palette.js';
export * from './field-colors.js';
export * from './routes/index.js';
export * from './client/index.js';
