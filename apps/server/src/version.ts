// The product version, read from the root package.json at start.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const VERSION: string = (
  JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as {
    version: string;
  }
).version;
