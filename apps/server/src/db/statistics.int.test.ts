import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Client, TestApp } from '../testing/test-app.js';
import { startLicensedApp, testDialect } from '../testing/test-app.js';
import { FIRST_ANALYZE_ROWS } from './statistics.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

/** The row count PostgreSQL's planner believes `samples` has: -1 until it is first analyzed. */
async function plannedRows(): Promise<number> {
  const { rows } = await sql<{
    reltuples: number;
  }>`select reltuples from pg_class where oid = 'samples'::regclass`.execute(t.database.db);
  return Number(rows[0]!.reltuples);
}

describe.skipIf(testDialect !== 'postgres')('planner statistics on PostgreSQL', () => {
  it('analyzes a table once uploads have written as many rows as it had at its last analysis', async () => {
    const { id } = (
      await admin.post('/api/datasets', { name: 'Big', task_type: 'classification' })
    ).json() as { id: string };
    const upload = async (ids: string[]) =>
      expect(
        (await admin.post(`/api/datasets/${id}/samples`, { samples: ids.map((s) => ({ id: s })) }))
          .statusCode,
      ).toBe(200);
    const statistics = t.services.statistics;
    await upload(['a', 'b', 'c']);
    await statistics.settled();
    expect(await plannedRows()).toBe(-1); // 3 rows: too few to bother

    statistics.wrote('samples', FIRST_ANALYZE_ROWS - 4);
    await statistics.settled();
    expect(await plannedRows()).toBe(-1);
    await upload(['d']); // the 10,000th row written
    await statistics.settled();
    expect(await plannedRows()).toBe(4);

    // The next analysis comes once as many rows again have been written.
    await upload(['e', 'f']);
    statistics.wrote('samples', FIRST_ANALYZE_ROWS - 3);
    await statistics.settled();
    expect(await plannedRows()).toBe(4);
    await upload(['g']);
    await statistics.settled();
    expect(await plannedRows()).toBe(7);
  });
});
