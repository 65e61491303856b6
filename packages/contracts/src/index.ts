// The one contract between server, web app and SDKs: zod schemas and their types.
export * from './errors.js';
export * from './validation.js';
export * from './users.js';
export * from './auth.js';
export * from './license.js';
export * from './settings.js';
