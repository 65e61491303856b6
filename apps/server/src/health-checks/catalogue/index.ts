// The product's check definitions in the list's group order (docs/health-checks.md, "The
// catalogue"); the registry (registry.ts, CATALOGUE_SOURCE) and the checks process import it by URL.
import { balanceChecks } from './balance.js';
import { duplicateChecks } from './duplicates.js';
import { labelChecks } from './labels.js';
import { outlierChecks } from './outliers.js';
import { qualityChecks } from './quality.js';
import type { CheckDefinition } from './types.js';

export const CHECK_DEFINITIONS: CheckDefinition[] = [
  ...duplicateChecks,
  ...labelChecks,
  ...outlierChecks,
  ...qualityChecks,
  ...balanceChecks,
];
