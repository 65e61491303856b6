// The image half of the metadata pass: what comes from the file's header and what is measured on
// the decoded pixels (at most ANALYSIS_MAX_SIDE).
import { imageStatistics } from '@loupe/analysis';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { encodeWav } from '@loupe/analysis';
import { ANALYSIS_MAX_SIDE, computeAudioMetadata, computeImageMetadata } from './media-metadata.js';

/** A width×height RGB image: a left-to-right ramp in red, vertical stripes of `period` px in green. */
function pattern(width: number, height: number, period: number): Buffer {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const p = (y * width + x) * 3;
      data[p] = Math.round((255 * x) / (width - 1));
      data[p + 1] = Math.floor(x / period) % 2 ? 220 : 30;
      data[p + 2] = 90;
    }
  return data;
}

const encode = (data: Buffer, width: number, height: number) =>
  sharp(data, { raw: { width, height, channels: 3 } });

describe('computeImageMetadata', () => {
  it('reports the original size and format, and measures a large photo at the analysis size', async () => {
    const bytes = await encode(pattern(1600, 1200, 16), 1600, 1200)
      .png()
      .toBuffer();
    const computed = await computeImageMetadata(bytes, sharp);
    expect(computed.values).toMatchObject({
      'image.width': 1600,
      'image.height': 1200,
      'image.aspect_ratio': 1600 / 1200,
      'image.file_size': bytes.length,
      'image.format': 'png',
      'image.corrupt': false,
    });
    expect(computed.pixels).toMatchObject({ width: ANALYSIS_MAX_SIDE, height: 384, channels: 3 });
    // The statistics are those of the image scaled to 512 px (docs/performance.md), not of the
    // 1600 px original: stripes 16 px apart are 5.12 px apart there, so the Laplacian differs.
    const scaled = await sharp(bytes).resize(512, 384).raw().toBuffer();
    const expected = imageStatistics({ data: scaled, width: 512, height: 384, channels: 3 });
    const original = imageStatistics({
      data: pattern(1600, 1200, 16),
      width: 1600,
      height: 1200,
      channels: 3,
    });
    expect(computed.values['image.sharpness']).toBeCloseTo(expected.sharpness, 6);
    expect(computed.values['image.brightness']).toBeCloseTo(expected.brightness, 6);
    expect(computed.values['image.sharpness']).not.toBeCloseTo(original.sharpness, 0);
    // Brightness barely depends on the scale; colourfulness a little (the stripes soften).
    expect(computed.values['image.brightness'] as number).toBeCloseTo(original.brightness, 2);
    const colourfulness = computed.values['image.colorfulness'] as number;
    expect(Math.abs(colourfulness / original.colorfulness - 1)).toBeLessThan(0.05);
  });

  it('swaps width and height for EXIF orientations that turn the picture', async () => {
    const bytes = await encode(pattern(800, 600, 8), 800, 600)
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const computed = await computeImageMetadata(bytes, sharp);
    expect(computed.values).toMatchObject({
      'image.width': 600,
      'image.height': 800,
      'image.format': 'jpeg',
    });
    expect(computed.pixels).toMatchObject({ width: 384, height: ANALYSIS_MAX_SIDE });
  });

  it('measures a flat grey image exactly, and never enlarges a small one', async () => {
    const bytes = await sharp({
      create: { width: 64, height: 48, channels: 3, background: { r: 128, g: 128, b: 128 } },
    })
      .png()
      .toBuffer();
    const computed = await computeImageMetadata(bytes, sharp);
    expect(computed.pixels).toMatchObject({ width: 64, height: 48 });
    expect(computed.values['image.brightness']).toBeCloseTo(128 / 255, 9);
    expect(computed.values['image.contrast']).toBeCloseTo(0, 6);
    expect(computed.values['image.sharpness']).toBeCloseTo(0, 6);
    expect(computed.values['image.colorfulness']).toBeCloseTo(0, 6);
  });

  it('hashes the decoded picture: alike in PNG and lossless WebP, different for another picture', async () => {
    for (const [width, height] of [
      [300, 200],
      [1600, 1200],
    ] as const) {
      const raw = pattern(width, height, 8);
      const png = await encode(raw, width, height).png().toBuffer();
      const webp = await encode(raw, width, height).webp({ lossless: true }).toBuffer();
      const a = await computeImageMetadata(png, sharp);
      const b = await computeImageMetadata(webp, sharp);
      expect(a.values['image.format']).toBe('png');
      expect(b.values['image.format']).toBe('webp');
      expect(a.values['image.content_hash']).toMatch(/^[0-9a-f]{16}$/);
      expect(b.values['image.content_hash']).toBe(a.values['image.content_hash']);
    }
    const small = await computeImageMetadata(
      await encode(pattern(300, 200, 8), 300, 200)
        .png()
        .toBuffer(),
      sharp,
    );
    const other = await computeImageMetadata(
      await encode(pattern(300, 200, 9), 300, 200)
        .png()
        .toBuffer(),
      sharp,
    );
    expect(other.values['image.content_hash']).not.toBe(small.values['image.content_hash']);
  });
});

describe('computeAudioMetadata', () => {
  const tone = (amplitude: number) =>
    Float32Array.from({ length: 800 }, (_, i) => amplitude * Math.sin((2 * Math.PI * i) / 40));

  it('hashes the decoded samples and measures clipping', async () => {
    const wav = (channels: Float32Array[], rate = 8000) => Buffer.from(encodeWav(channels, rate));
    const a = await computeAudioMetadata(wav([tone(0.5)]));
    const again = await computeAudioMetadata(wav([tone(0.5)]));
    expect(a.values['audio.content_hash']).toMatch(/^[0-9a-f]{16}$/);
    expect(again.values['audio.content_hash']).toBe(a.values['audio.content_hash']);
    const hashes = new Set([
      a.values['audio.content_hash'],
      (await computeAudioMetadata(wav([tone(0.5)], 16000))).values['audio.content_hash'],
      (await computeAudioMetadata(wav([tone(0.4)]))).values['audio.content_hash'],
      (await computeAudioMetadata(wav([tone(0.5), tone(0.5)]))).values['audio.content_hash'],
    ]);
    expect(hashes.size).toBe(4);
    expect(a.values['audio.clipped_fraction']).toBe(0);
    const loud = await computeAudioMetadata(wav([tone(2)]));
    // |2·sin| ≥ 0.999 on all but the samples within asin(0.4995) of a zero crossing.
    const expected = tone(2).filter((x) => Math.abs(x) >= 0.999).length / 800;
    expect(loud.values['audio.clipped_fraction']).toBe(expected);
  });
});
