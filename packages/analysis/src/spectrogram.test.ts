import { describe, expect, it } from 'vitest';
import { spectrogramImage } from './spectrogram.js';

function tone(hz: number, sampleRate: number, seconds: number): Float32Array {
  return Float32Array.from(
    { length: Math.round(sampleRate * seconds) },
    (_, i) => 0.5 * Math.sin((2 * Math.PI * hz * i) / sampleRate),
  );
}

/** Mean brightness of each row, top row first. */
function rowBrightness(image: ReturnType<typeof spectrogramImage>): number[] {
  return Array.from({ length: image.height }, (_, y) => {
    let sum = 0;
    for (let x = 0; x < image.width; x++)
      for (let c = 0; c < 3; c++) sum += image.data[(y * image.width + x) * 3 + c]!;
    return sum / image.width;
  });
}

describe('spectrogramImage', () => {
  it('draws a tone as a bright band at its log-frequency row, higher tones higher up', () => {
    const sampleRate = 16_000;
    const row = (hz: number) => {
      const rows = rowBrightness(
        spectrogramImage([tone(hz, sampleRate, 0.5)], sampleRate, 64, 128),
      );
      return rows.indexOf(Math.max(...rows));
    };
    const expectedRow = (hz: number) =>
      128 - 1 - Math.floor((Math.log(hz / 40) / Math.log(8000 / 40)) * 128);
    for (const hz of [200, 1000, 4000])
      expect(Math.abs(row(hz) - expectedRow(hz))).toBeLessThanOrEqual(3);
    expect(row(4000)).toBeLessThan(row(1000));
    expect(row(1000)).toBeLessThan(row(200));
  });

  it('has the requested size, and silence is one flat colour', () => {
    const image = spectrogramImage([new Float32Array(8000)], 8000, 40, 20);
    expect([image.width, image.height, image.channels, image.data.length]).toEqual([
      40,
      20,
      3,
      40 * 20 * 3,
    ]);
    expect(new Set(rowBrightness(image)).size).toBe(1);
  });
});
