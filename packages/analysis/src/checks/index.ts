// Algorithms of the data health checks (docs/health-checks.md): pure, typed arrays in and out.
export * from './union-find.js';
export * from './kept.js';
export * from './duplicates.js';
export * from './near-duplicates.js';
export * from './label-errors.js';
export * from './object-issues.js';
export * from './outliers.js';
export * from './quality.js';
export * from './balance.js';
