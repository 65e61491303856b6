// `npm run openapi` writes docs/api/openapi.json from the same zod schemas that validate
// requests; a test fails when the committed document drifts from them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';

export const OPENAPI_PATH = resolve(import.meta.dirname, '../../../../docs/api/openapi.json');

/** The OpenAPI document of the current code, as committed (stable key order, trailing newline). */
export async function generateOpenApi(): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), 'loupe-openapi-'));
  const config = loadConfig({
    LOUPE_DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    DATABASE_URL: 'sqlite::memory:',
  });
  const database = openDatabase(config.database);
  try {
    const { app } = await buildApp({
      config: { ...config, webDir: join(dataDir, 'no-web') },
      database,
    });
    await app.ready();
    const document = app.swagger();
    await app.close();
    return `${JSON.stringify(document, null, 2)}\n`;
  } finally {
    await database.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const text = await generateOpenApi();
  mkdirSync(dirname(OPENAPI_PATH), { recursive: true });
  writeFileSync(OPENAPI_PATH, text);
  console.log(`Wrote ${OPENAPI_PATH}`);
}
