// The explorer's table files (docs/explore-snapshots.md) on a real server and database: a second
// app on the same database and data directory, as after a restart or in another API process,
// reads the tables the first one built, follows its edits, and rebuilds when a file is damaged.
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { api, type Filter, type ItemIdsRequest } from '@loupe/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { Client, startLicensedApp, type TestApp } from '../testing/test-app.js';

let t: TestApp;
let admin: Client;
const others: { close(): Promise<void> }[] = [];
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(async () => {
  for (const other of others.splice(0)) await other.close();
  await t.close();
});

/** Another app on the same database and data directory, signed in as the same admin. */
async function restart() {
  const other = await buildApp({ config: t.config, database: t.database, clock: t.clock.read });
  await other.app.ready();
  others.push(other.app);
  const client = new Client(other.app);
  client.cookie = admin.cookie;
  return { services: other.services, client };
}

const labelIs = (value: string[]): Filter => ({
  type: 'string',
  metadata_id: 'label',
  op: 'in',
  value,
});

const isCorrect: Filter = {
  type: 'boolean',
  metadata_id: 'prediction.is_correct',
  op: 'bool_equals',
  value: true,
};

const idsWith = async (client: Client, id: string, body: Partial<ItemIdsRequest>) =>
  (
    await client.call(api.explore.itemIds, {
      params: { id },
      body: { data_level: 'image', format: 'ids', ...body },
    })
  ).item_ids!;

/** Pets a..f (cat, dog, cat, dog, cat, dog), weights 6..1; a prediction set says cat for all. */
async function pets(): Promise<{ id: string; setId: string }> {
  const { id } = await admin.call(api.datasets.create, {
    body: { name: 'Pets', task_type: 'classification', class_names: ['cat', 'dog', 'bird'] },
  });
  await admin.call(api.samples.upload, {
    params: { id },
    body: {
      samples: ['a', 'b', 'c', 'd', 'e', 'f'].map((sample, i) => ({
        id: sample,
        split: i < 4 ? 'train' : 'val',
        label: i % 2 === 0 ? 'cat' : 'dog',
        metadata: { weight: 6 - i },
      })),
      metadata_types: {},
    },
  });
  const { id: setId } = await admin.call(api.predictionSets.create, {
    params: { id },
    body: { name: 'model' },
  });
  await admin.call(api.predictionSets.uploadPredictions, {
    params: { id, predictionSetId: setId },
    body: {
      predictions: ['a', 'b', 'c', 'd', 'e', 'f'].map((sample) => ({
        id: sample,
        label: 'cat',
      })),
    },
  });
  return { id, setId };
}

const byWeight: Partial<ItemIdsRequest> = { sort: [{ name: 'weight', direction: 'ascending' }] };

describe('explorer table files', () => {
  it('a restarted app reads the tables built before instead of building them', async () => {
    const { id, setId } = await pets();
    expect(await idsWith(admin, id, { ...byWeight, filter: labelIs(['dog']) })).toEqual([
      'f',
      'd',
      'b',
    ]);
    const correct = await idsWith(admin, id, {
      predictions_id: setId,
      filter: isCorrect,
    });
    expect(correct).toEqual(['a', 'c', 'e']);
    await t.services.explore.snapshotsSettled();
    const dir = join(t.config.dataDir, 'explore-tables', id);
    expect(readdirSync(dir).sort()).toEqual([
      expect.stringMatching(/^image\.-\.\d+\.table$/),
      expect.stringMatching(new RegExp(`^image\\.${setId}\\.\\d+\\.table$`)),
    ]);

    const other = await restart();
    expect(await idsWith(other.client, id, { ...byWeight, filter: labelIs(['dog']) })).toEqual([
      'f',
      'd',
      'b',
    ]);
    expect(
      await idsWith(other.client, id, {
        predictions_id: setId,
        filter: isCorrect,
      }),
    ).toEqual(correct);
    expect(other.services.explore.snapshotReads).toBe(2);
    // Field statistics and items come from the table read back, as from a built one.
    const info = await other.client.call(api.explore.metadataInfo, {
      params: { id },
      query: { data_level: 'image' },
    });
    expect(info.metadata_config.find((field) => field.id === 'weight')).toMatchObject({
      options: { min: 1, max: 6 },
      num_total: 6,
    });
  });

  it('an edit writes the patched table: the next process reads the new version', async () => {
    const { id } = await pets();
    await idsWith(admin, id, { filter: labelIs(['dog']) });
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'update_label', dataset_id: id, updates: { bird: ['a'] } }] },
    });
    expect(await idsWith(admin, id, { filter: labelIs(['bird']) })).toEqual(['a']);
    await t.services.explore.snapshotsSettled();
    // Only the newest version is kept.
    expect(readdirSync(join(t.config.dataDir, 'explore-tables', id))).toHaveLength(1);

    const other = await restart();
    expect(await idsWith(other.client, id, { filter: labelIs(['bird']) })).toEqual(['a']);
    expect(other.services.explore.snapshotReads).toBe(1);
    expect(other.services.explore.tableBuilds).toBe(1);
  });

  it('a damaged file is removed and the table built again, with the same answer', async () => {
    const { id } = await pets();
    const before = await idsWith(admin, id, byWeight);
    await t.services.explore.snapshotsSettled();
    const dir = join(t.config.dataDir, 'explore-tables', id);
    const [file] = readdirSync(dir);
    writeFileSync(join(dir, file!), 'LOUPETB1 and then nothing that makes sense');

    const other = await restart();
    expect(await idsWith(other.client, id, byWeight)).toEqual(before);
    expect(other.services.explore.snapshotReads).toBe(0);
    await other.services.explore.snapshotsSettled();
    // Written again by the build.
    expect(readdirSync(dir)).toEqual([file]);
    const third = await restart();
    expect(await idsWith(third.client, id, byWeight)).toEqual(before);
    expect(third.services.explore.snapshotReads).toBe(1);
  });

  it('a restarted process reads back the most recently used tables that fit its budget', async () => {
    const { id, setId } = await pets();
    await idsWith(admin, id, byWeight);
    await idsWith(admin, id, { predictions_id: setId });
    await t.services.explore.snapshotsSettled();
    const dir = join(t.config.dataDir, 'explore-tables', id);
    const [withModel, plain] = [
      readdirSync(dir).find((name) => name.includes(setId))!,
      readdirSync(dir).find((name) => !name.includes(setId))!,
    ];
    // The table with the model was used last.
    utimesSync(join(dir, plain), new Date(2020, 0, 1), new Date(2020, 0, 1));
    const budget = statSync(join(dir, withModel)).size;

    const other = await restart();
    expect(await other.services.explore.prewarm(budget)).toBe(1);
    expect(other.services.explore.snapshotReads).toBe(1);
    await idsWith(other.client, id, { predictions_id: setId });
    expect(other.services.explore.tableBuilds).toBe(1); // the prewarmed one: nothing more
    expect(other.services.explore.snapshotReads).toBe(1);

    // A new data version: its files are stale and are not read.
    await admin.call(api.samples.upload, {
      params: { id },
      body: { samples: [{ id: 'g', label: 'cat' }], metadata_types: {} },
    });
    const third = await restart();
    expect(await third.services.explore.prewarm(10 * 1024 ** 3)).toBe(0);
  });

  it('deleting the dataset removes its files', async () => {
    const { id } = await pets();
    await idsWith(admin, id, byWeight);
    await t.services.explore.snapshotsSettled();
    expect(readdirSync(join(t.config.dataDir, 'explore-tables'))).toEqual([id]);
    await admin.call(api.datasets.delete, { params: { id } });
    expect(readdirSync(join(t.config.dataDir, 'explore-tables'))).toEqual([]);
  });
});

describe('with LOUPE_EXPLORE_THREAD_ITEMS', () => {
  it('builds a table of that many items on the table thread and reads back its file', async () => {
    await t.close();
    ({ t, admin } = await startLicensedApp({ LOUPE_EXPLORE_THREAD_ITEMS: '6' }));
    const { id, setId } = await pets();
    // Built on the thread, read back here: the same answers as a build in process.
    expect(await idsWith(admin, id, { ...byWeight, filter: labelIs(['dog']) })).toEqual([
      'f',
      'd',
      'b',
    ]);
    expect(
      await idsWith(admin, id, {
        predictions_id: setId,
        filter: isCorrect,
      }),
    ).toEqual(['a', 'c', 'e']);
    expect(t.services.explore.snapshotReads).toBe(2);
    expect(t.services.explore.tableBuilds).toBe(2);
    // A smaller table is built in process (nothing read back).
    await admin.call(api.curation.applyActions, {
      body: { actions: [{ type: 'delete_items', dataset_id: id, item_ids: ['a'] }] },
    });
    expect(await idsWith(admin, id, byWeight)).toEqual(['f', 'e', 'd', 'c', 'b']);
    expect(t.services.explore.snapshotReads).toBe(2);
  });
});

describe('with LOUPE_EXPLORE_SNAPSHOTS=false', () => {
  it('writes no file and builds the table in every process', async () => {
    await t.close();
    ({ t, admin } = await startLicensedApp({ LOUPE_EXPLORE_SNAPSHOTS: 'false' }));
    const { id } = await pets();
    await idsWith(admin, id, byWeight);
    await t.services.explore.snapshotsSettled();
    expect(readdirSync(t.config.dataDir)).not.toContain('explore-tables');
  });
});
