// Search state kept between runs of the health checks (check-state.ts), on a real server and
// database: the checks process hands each check its dataset's state files under the data folder,
// a rerun after samples were added reads what the last run kept, a damaged file is a full run,
// and deleting the dataset removes its state.
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, checkFailedField } from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';
import { siblingModule } from './definition-sources.js';

let t: TestApp;
let admin: Client;
beforeAll(async () => {
  ({ t, admin } = await startLicensedApp());
  t.services.checkCatalogue.use([
    { url: siblingModule(import.meta.url, './test-definitions'), exportName: 'keptStateChecks' },
  ]);
});
afterAll(() => t.close());

const DATASET = { task_type: 'classification' as const, class_names: ['cat', 'dog'] };
const samples = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => ({
    id: `s${from + i}`,
    split: 'train',
    label: (from + i) % 2 ? 'cat' : 'dog',
  }));

async function flagged(id: string): Promise<string[]> {
  await admin.call(api.healthChecks.run, { params: { id } });
  await t.runner.drain();
  const answer = await admin.call(api.explore.itemIds, {
    params: { id },
    body: {
      data_level: 'image',
      filter: {
        type: 'boolean',
        metadata_id: checkFailedField('test_kept.image'),
        op: 'bool_equals',
        value: true,
      },
      format: 'ids',
    },
  });
  return [...answer.item_ids!].sort();
}

describe('kept check state', () => {
  it('gives a rerun the state of the last run, per dataset, and forgets it with the dataset', async () => {
    const { id } = await admin.call(api.datasets.create, {
      body: { name: `kept ${Math.random()}`, ...DATASET },
    });
    await admin.call(api.samples.upload, { params: { id }, body: { samples: samples(0, 4) } });
    // The first run has no state: every sample is new to it.
    expect(await flagged(id)).toEqual(['s0', 's1', 's2', 's3']);
    const folder = join(t.config.dataDir, 'check-state', id);
    expect(readdirSync(folder)).toEqual(['test-kept.state']);

    await admin.call(api.samples.upload, { params: { id }, body: { samples: samples(4, 6) } });
    expect(await flagged(id)).toEqual(['s4', 's5']);

    // A damaged state file is ignored: the check runs in full.
    writeFileSync(join(folder, 'test-kept.state'), 'LOUPECS1 not a state');
    await admin.call(api.samples.upload, { params: { id }, body: { samples: samples(6, 7) } });
    expect(await flagged(id)).toEqual(
      samples(0, 7)
        .map((s) => s.id)
        .sort(),
    );

    await admin.call(api.datasets.delete, { params: { id } });
    expect(existsSync(folder)).toBe(false);
  });
});
