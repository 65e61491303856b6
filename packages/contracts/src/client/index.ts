// The typed API client and what it is made of.
export * from './api-error.js';
export * from './client.js';
export * from './cookies.js';
export * from './json-text.js';
export * from './url.js';
export * from './item-rows.js';
