import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';
import { DemoService } from './demo.service.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('demo seeding', () => {
  it('creates one dataset per task type on an unlicensed instance, with predictions and computed metadata', async () => {
    const demo = new DemoService(t.services, pino({ level: 'silent' }));
    const names = await demo.seed(8);
    expect(names).toHaveLength(7);
    expect(await demo.seed(8)).toEqual([]); // idempotent
    await t.runner.drain();

    const admin = await setUpInstance(t.app);
    const datasets = (await admin.get('/api/datasets')).json() as {
      name: string;
      task_type: string;
      samples_count: number;
      predictions_count: number;
      id: string;
    }[];
    expect(datasets.map((d) => d.task_type).sort()).toEqual([
      'audio_classification',
      'automatic_speech_recognition',
      'classification',
      'instance_segmentation',
      'object_detection',
      'regression',
      'semantic_segmentation',
    ]);
    for (const dataset of datasets) {
      expect(dataset.samples_count).toBe(8);
      expect(dataset.predictions_count).toBe(dataset.task_type === 'semantic_segmentation' ? 0 : 2);
      const history = (await admin.get(`/api/datasets/${dataset.id}/history`)).json();
      expect(history[0]).toMatchObject({
        operation_type: 'sample:create',
        num_items: 8,
        user_name: 'Loupe',
      });
    }
    const unprocessed = await t.database.db
      .selectFrom('samples')
      .select('id')
      .where('processed', '=', 0)
      .execute();
    expect(unprocessed).toEqual([]);
    const corrupt = await t.database.db.selectFrom('samples').select(['id', 'computed']).execute();
    expect(corrupt.filter((row) => /"(image|audio)\.corrupt":true/.test(row.computed!))).toEqual(
      [],
    );
  });
});
