// Hostile media through the real upload path: lying WAV and PNG headers and a file slower than its
// deadline end corrupt with a reason, the good files beside them are measured, and the API answers.
import { crc32 } from 'node:zlib';
import { encodeWav } from '@loupe/analysis';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { expectKeptAnswering, healthDuring } from '../testing/health-probe.js';
import { testClip, testImage } from '../testing/media.js';
import { startLicensedApp, type Client, type TestApp } from '../testing/test-app.js';

let t: TestApp | undefined;
afterEach(() => t?.close());

/** A small WAV whose header is then rewritten to claim `rate` and `channels`. */
function claimingWav(rate: number, channels: number): Buffer {
  const bytes = Buffer.from(encodeWav([new Float32Array(1000)], 8000));
  bytes.writeUInt32LE(rate, 24);
  bytes.writeUInt16LE(channels, 22);
  return bytes;
}

/** A 1×1 PNG whose header (IHDR, with a correct checksum) claims `width` × `height`. */
async function claimingPng(width: number, height: number): Promise<Buffer> {
  const bytes = await sharp({
    create: { width: 1, height: 1, channels: 3, background: 'black' },
  })
    .png()
    .toBuffer();
  bytes.writeUInt32BE(width, 16);
  bytes.writeUInt32BE(height, 20);
  bytes.writeUInt32BE(crc32(bytes.subarray(12, 29)), 29);
  return bytes;
}

async function upload(
  admin: Client,
  task: 'audio_classification' | 'classification',
  files: Record<string, Buffer>,
): Promise<void> {
  const dataset = await admin.post('/api/datasets', { name: 'Attacks', task_type: task });
  expect(dataset.statusCode, dataset.body).toBe(201);
  const { id } = dataset.json() as { id: string };
  const samples = [];
  for (const [sample, bytes] of Object.entries(files)) {
    const stored = await admin.call({
      method: 'POST',
      url: `/api/datasets/${id}/media`,
      body: bytes,
      headers: { 'content-type': task === 'classification' ? 'image/png' : 'audio/wav' },
    });
    expect(stored.statusCode, stored.body).toBe(200);
    samples.push({
      id: sample,
      [task === 'classification' ? 'image' : 'audio']: stored.json().key,
    });
  }
  const response = await admin.post(`/api/datasets/${id}/samples`, { samples });
  expect(response.statusCode, response.body).toBe(200);
}

/** Drains the job runner while /api/health is probed; answers each sample's computed values. */
async function processWhileProbing(app: TestApp) {
  const during = await healthDuring(app.app, () => app.runner.drain());
  const rows = await app.database.db.selectFrom('samples').select(['id', 'computed']).execute();
  const computed = Object.fromEntries(
    rows.map((row) => [row.id, JSON.parse(row.computed!) as Record<string, unknown>]),
  );
  return { during, computed };
}

describe('hostile media', () => {
  it('refuses WAV headers that claim absurd rates, lengths or channel counts, and goes on', async () => {
    const started = await startLicensedApp();
    t = started.t;
    await upload(started.admin, 'audio_classification', {
      rate: claimingWav(0xffffffff, 1),
      // 2 MB of samples at 1 Hz: twelve days.
      slow: Buffer.from(encodeWav([new Float32Array(1 << 20)], 1)),
      channels: claimingWav(8000, 65535),
      good: testClip(1, 0.5),
    });
    const { during, computed } = await processWhileProbing(t);
    expectKeptAnswering(during);
    expect(computed.rate).toMatchObject({
      'audio.corrupt': true,
      error: 'sample rate 4294967295 Hz is outside 1 Hz–768 kHz',
    });
    expect(computed.slow).toMatchObject({
      'audio.corrupt': true,
      error: 'duration 1048576 s is over the limit of 3600 s (1 hour)',
    });
    expect(computed.channels).toMatchObject({
      'audio.corrupt': true,
      error: '65535 channels is outside 1–32',
    });
    expect(computed.good).toMatchObject({
      'audio.corrupt': false,
      'audio.duration': 0.5,
      'audio.sample_rate': 8000,
    });
  });

  it('refuses an image whose header claims more pixels than allowed, before decoding it', async () => {
    const started = await startLicensedApp();
    t = started.t;
    await upload(started.admin, 'classification', {
      bomb: await claimingPng(100_000, 100_000),
      good: (await testImage(2)).bytes,
    });
    const { during, computed } = await processWhileProbing(t);
    expectKeptAnswering(during);
    expect(computed.bomb).toMatchObject({
      'image.corrupt': true,
      error: 'image of 100000 × 100000 pixels is over the limit of 100 megapixels',
    });
    expect(computed.good).toMatchObject({ 'image.corrupt': false, 'image.width': 64 });
  });

  it('honours LOUPE_MEDIA_MAX_PIXELS', async () => {
    const started = await startLicensedApp({ LOUPE_MEDIA_MAX_PIXELS: '1000' });
    t = started.t;
    await upload(started.admin, 'classification', {
      large: (await testImage(3, 'png', 40, 30)).bytes,
      small: (await testImage(4, 'png', 30, 30)).bytes,
    });
    const { computed } = await processWhileProbing(t);
    expect(computed.large).toMatchObject({
      'image.corrupt': true,
      error: 'image of 40 × 30 pixels is over the limit of 0.001 megapixels',
    });
    expect(computed.small).toMatchObject({ 'image.corrupt': false, 'image.width': 30 });
  });

  it('gives up on a file that takes longer than LOUPE_MEDIA_TIMEOUT_S, and goes on', async () => {
    const started = await startLicensedApp({ LOUPE_MEDIA_TIMEOUT_S: '1' });
    t = started.t;
    await upload(started.admin, 'audio_classification', {
      // Fifteen minutes at 16 kHz: several seconds of analysis.
      long: Buffer.from(encodeWav([new Float32Array(16000 * 900).fill(0.25)], 16000)),
      good: testClip(2, 0.5),
      after: testClip(3, 0.25),
    });
    const { during, computed } = await processWhileProbing(t);
    expectKeptAnswering(during);
    expect(computed.long).toMatchObject({
      'audio.corrupt': true,
      'audio.file_size': 16000 * 900 * 2 + 44,
      error: 'decoding and measuring took longer than 1 s',
    });
    expect(computed.good).toMatchObject({ 'audio.corrupt': false, 'audio.duration': 0.5 });
    expect(computed.after).toMatchObject({ 'audio.corrupt': false, 'audio.duration': 0.25 });
  });
});
