// Test media made on the spot: PNG/JPEG images with known boxes and WAV clips with known tones.
import { encodeWav, syntheticImage, syntheticTone } from '@loupe/analysis';
import sharp from 'sharp';

export async function testImage(
  seed: number,
  format: 'png' | 'jpeg' = 'png',
  width = 64,
  height = 48,
) {
  const image = syntheticImage(seed, width, height, {
    labels: ['cat', 'dog'],
    minObjects: 1,
    maxObjects: 2,
  });
  const encoder = sharp(Buffer.from(image.data), { raw: { width, height, channels: 3 } });
  const bytes = format === 'png' ? await encoder.png().toBuffer() : await encoder.jpeg().toBuffer();
  return { bytes, objects: image.objects };
}

export function testClip(seed: number, seconds = 0.5, sampleRate = 8000): Buffer {
  return Buffer.from(encodeWav([syntheticTone(seed, sampleRate, seconds)], sampleRate));
}
