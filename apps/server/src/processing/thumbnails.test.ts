// The grid thumbnail: a WebP of at most 512 px made from the metadata pass's pixels, unless the
// uploaded file is a small web image that can be shown as it is.
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { ORIGINAL_THUMBNAIL } from '../storage/thumbnail-refs.js';
import { computeImageMetadata } from './media-metadata.js';
import {
  ORIGINAL_THUMBNAIL_MAX_BYTES,
  renderThumbnail,
  servesAsOwnThumbnail,
  thumbnailFromComputed,
} from './thumbnails.js';

const UPLOADED = `blob:${'a'.repeat(64)}`;

/** A width×height RGB image, dark on the left and bright on the right in red. */
function ramp(width: number, height: number): Sharp {
  const data = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      data[(y * width + x) * 3] = Math.round((255 * x) / (width - 1));
      data[(y * width + x) * 3 + 2] = 90;
    }
  return sharp(data, { raw: { width, height, channels: 3 } });
}

/** Random colours: incompressible, so the file is as large as its pixels. */
function noise(width: number, height: number): Sharp {
  const data = Buffer.alloc(width * height * 3);
  let state = 12345;
  for (let i = 0; i < data.length; i++) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    data[i] = state >>> 24;
  }
  return sharp(data, { raw: { width, height, channels: 3 } });
}

describe('servesAsOwnThumbnail', () => {
  const jpeg640 = { format: 'jpeg', width: 640, height: 480, space: 'srgb', orientation: 1 };

  it('takes a small uploaded JPEG, PNG or WebP in sRGB or grey as it is', () => {
    expect(servesAsOwnThumbnail(UPLOADED, jpeg640, 60_000)).toBe(true);
    expect(servesAsOwnThumbnail(UPLOADED, { ...jpeg640, format: 'png' }, 60_000)).toBe(true);
    expect(servesAsOwnThumbnail(UPLOADED, { ...jpeg640, format: 'webp' }, 60_000)).toBe(true);
    expect(servesAsOwnThumbnail(UPLOADED, { ...jpeg640, space: 'b-w' }, 60_000)).toBe(true);
    expect(servesAsOwnThumbnail(UPLOADED, { ...jpeg640, width: 480, height: 640 }, 60_000)).toBe(
      true,
    );
    expect(servesAsOwnThumbnail(UPLOADED, { ...jpeg640, orientation: undefined }, 60_000)).toBe(
      true,
    );
  });

  it('makes a thumbnail for anything else', () => {
    const cases: [string, Parameters<typeof servesAsOwnThumbnail>[1], number][] = [
      ['one pixel too wide', { ...jpeg640, width: 641 }, 60_000],
      ['one pixel too tall', { ...jpeg640, width: 400, height: 641 }, 60_000],
      ['too many bytes', jpeg640, ORIGINAL_THUMBNAIL_MAX_BYTES + 1],
      ['turned by EXIF', { ...jpeg640, orientation: 6 }, 60_000],
      ['CMYK', { ...jpeg640, space: 'cmyk' }, 60_000],
      ['a GIF', { ...jpeg640, format: 'gif' }, 60_000],
      ['a TIFF', { ...jpeg640, format: 'tiff' }, 60_000],
      ['animated', { ...jpeg640, format: 'webp', pages: 3 }, 60_000],
      ['of unknown size', { format: 'jpeg', space: 'srgb' }, 60_000],
    ];
    for (const [why, header, bytes] of cases)
      expect([why, servesAsOwnThumbnail(UPLOADED, header, bytes)]).toEqual([why, false]);
    expect(servesAsOwnThumbnail(UPLOADED, jpeg640, ORIGINAL_THUMBNAIL_MAX_BYTES)).toBe(true);
  });

  it('never takes a file the server reads from a URL or a path', () => {
    expect(servesAsOwnThumbnail('https://example.com/a.jpg', jpeg640, 60_000)).toBe(false);
    expect(servesAsOwnThumbnail('images/a.jpg', jpeg640, 60_000)).toBe(false);
  });
});

describe('thumbnailFromComputed', () => {
  it('answers ORIGINAL_THUMBNAIL for a 640×480 upload and a WebP for the same file from a path', async () => {
    const bytes = await ramp(640, 480).jpeg({ quality: 85 }).toBuffer();
    const computed = await computeImageMetadata(bytes, sharp);
    expect(await thumbnailFromComputed(UPLOADED, computed)).toBe(ORIGINAL_THUMBNAIL);
    const webp = await thumbnailFromComputed('images/a.jpg', computed);
    expect(Buffer.isBuffer(webp)).toBe(true);
    expect(await sharp(webp as Buffer).metadata()).toMatchObject({
      format: 'webp',
      width: 512,
      height: 384,
    });
    // The thumbnail shows the picture: its left edge is dark in red, its right edge bright.
    const { data, info } = await sharp(webp as Buffer)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const red = (x: number) => data[(200 * info.width + x) * info.channels]!;
    expect(red(2)).toBeLessThan(30);
    expect(red(509)).toBeGreaterThan(225);
  });

  it('encodes a small upload that is too many bytes', async () => {
    const bytes = await noise(600, 400).png().toBuffer();
    expect(bytes.length).toBeGreaterThan(ORIGINAL_THUMBNAIL_MAX_BYTES);
    const webp = await thumbnailFromComputed(UPLOADED, await computeImageMetadata(bytes, sharp));
    expect(await sharp(webp as Buffer).metadata()).toMatchObject({
      format: 'webp',
      width: 512,
      height: 341,
    });
  });
});

describe('renderThumbnail', () => {
  it('reads the header first and decodes only files that need a WebP, upright', async () => {
    const small = await ramp(320, 240).png().toBuffer();
    expect(await renderThumbnail(UPLOADED, small)).toBe(ORIGINAL_THUMBNAIL);
    // Turned by EXIF: the WebP is upright (portrait), the file is not, so it is never its own.
    const turned = await ramp(320, 240).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const webp = await renderThumbnail(UPLOADED, turned);
    expect(await sharp(webp as Buffer).metadata()).toMatchObject({ width: 240, height: 320 });
    const large = await ramp(1600, 1200).jpeg().toBuffer();
    expect(
      await sharp((await renderThumbnail(UPLOADED, large)) as Buffer).metadata(),
    ).toMatchObject({ format: 'webp', width: 512, height: 384 });
  });

  it('rejects a file that does not decode', async () => {
    await expect(renderThumbnail(UPLOADED, Buffer.from('not an image'))).rejects.toThrow();
  });
});
