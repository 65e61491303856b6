// Which computed metadata fields a dataset gets: fields about objects only for tasks with objects,
// so a classification dataset never lists an 'Object count' that every sample lacks.
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Client } from '../testing/test-app.js';
import { startLicensedApp, type TestApp } from '../testing/test-app.js';
import { testImage } from '../testing/media.js';

let t: TestApp;
let admin: Client;
beforeEach(async () => {
  ({ t, admin } = await startLicensedApp());
});
afterEach(() => t.close());

async function computedFieldIds(taskType: string): Promise<string[]> {
  const created = await admin.post('/api/datasets', { name: taskType, task_type: taskType });
  expect(created.statusCode, created.body).toBe(201);
  const { id } = created.json() as { id: string };
  const image = await testImage(1);
  const media = await admin.call({
    method: 'POST',
    url: `/api/datasets/${id}/media`,
    body: image.bytes,
    headers: { 'content-type': 'image/png' },
  });
  const sample: Record<string, unknown> = { id: 'one', image: media.json().key };
  if (taskType === 'classification') sample.label = 'cat';
  else sample.objects = image.objects.map((o) => ({ label: o.label, bbox: o.bbox }));
  const uploaded = await admin.post(`/api/datasets/${id}/samples`, { samples: [sample] });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  await t.runner.drain();
  const info = await admin.get(`/api/datasets/${id}/metadata_info?data_level=image`);
  expect(info.statusCode, info.body).toBe(200);
  return (info.json().metadata_config as { id: string; source: string }[])
    .filter((field) => field.source === 'computed')
    .map((field) => field.id);
}

it('a classification dataset has no object count; a detection dataset has one', async () => {
  const classification = await computedFieldIds('classification');
  expect(classification).toContain('image.width');
  expect(classification).not.toContain('image.object_count');
  expect(await computedFieldIds('object_detection')).toContain('image.object_count');
});
