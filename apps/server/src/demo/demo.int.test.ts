import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpInstance, startTestApp, type TestApp } from '../testing/test-app.js';
import { DemoService } from './demo.service.js';

let t: TestApp;
const audio = (dataset: { task_type: string }) =>
  dataset.task_type === 'audio_classification' ||
  dataset.task_type === 'automatic_speech_recognition';
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
      // Two prediction sets for every task, each with a prediction for every sample.
      expect(dataset.predictions_count).toBe(2);
      const sets = (await admin.get(`/api/dataset/models?dataset_id=${dataset.id}`)).json() as {
        id: string;
        num_present: number;
      }[];
      expect(sets.map((set) => set.num_present)).toEqual([8, 8]);
      const fields = (
        await admin.get(
          `/api/datasets/${dataset.id}/metadata_info?data_level=${audio(dataset) ? 'audio' : 'image'}`,
        )
      ).json() as { metadata_config: { name: string }[] };
      const names = fields.metadata_config.map((field) => field.name);
      // Audio is recorded, not photographed.
      if (audio(dataset)) {
        expect(names).not.toContain('camera');
        expect(names).not.toContain('exposure_ms');
        expect(names).toContain('microphone');
      } else expect(names).toContain('camera');
      if (dataset.task_type === 'semantic_segmentation') {
        // The predicted label maps are served like the ground truth's.
        const { items } = (
          await admin.post(`/api/datasets/${dataset.id}/items`, {
            data_level: 'image',
            item_ids: ['images/0000.png'],
            predictions_id: sets[0]!.id,
          })
        ).json() as { items: { mask_src: string | null; prediction: { mask_src: string } }[] };
        expect(items[0]!.mask_src).toMatch(/\/media\//);
        const mask = await admin.get(items[0]!.prediction.mask_src);
        expect(mask.statusCode).toBe(200);
        expect(mask.headers['content-type']).toBe('image/png');
      }
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
