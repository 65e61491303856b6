import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AUDIO_DESCRIPTOR_DIMENSION, audioDescriptor } from './audio-descriptor.js';
import { audioStatistics, CLIP_LEVEL, MIN_DBFS, spectralCentroid } from './audio-statistics.js';
import { createRealFft, hannWindow } from './fft.js';
import { AUDIO_MAX_SAMPLES, checkAudioLimits } from './audio-limits.js';
import { analyzeAudio } from './media.js';
import { createRandom } from './random.js';
import { spectrogramImage } from './spectrogram.js';
import { stftLayout } from './stft.js';
import { decodeWav, encodeWav } from './wav.js';

const RATE = 16000;

function sine(frequency: number, seconds: number, amplitude: number, rate = RATE): Float32Array {
  return Float32Array.from(
    { length: Math.round(rate * seconds) },
    (_, i) => amplitude * Math.sin((2 * Math.PI * frequency * i) / rate),
  );
}

function whiteNoise(seed: number, seconds: number, sigma: number): Float32Array {
  const random = createRandom(seed);
  return Float32Array.from({ length: Math.round(RATE * seconds) }, () => sigma * random.normal());
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i]! * b[i]!;
  return s;
}

describe('createRealFft', () => {
  it('matches a direct DFT', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }).chain((log) =>
          fc
            .array(fc.double({ min: -1, max: 1, noNaN: true }), {
              minLength: 1,
              maxLength: 2 ** log,
            })
            .map((x) => [2 ** log, x] as const),
        ),
        ([n, x]) => {
          const re = new Float64Array(n / 2 + 1);
          const im = new Float64Array(n / 2 + 1);
          createRealFft(n).transform(x, re, im);
          for (let k = 0; k <= n / 2; k++) {
            let r = 0;
            let i = 0;
            x.forEach((v, t) => {
              r += v * Math.cos((2 * Math.PI * k * t) / n);
              i -= v * Math.sin((2 * Math.PI * k * t) / n);
            });
            expect(re[k]).toBeCloseTo(r, 9);
            expect(im[k]).toBeCloseTo(i, 9);
          }
        },
      ),
    );
  });

  it('rejects sizes that are not powers of two; Hann is 0 at the start and 1 in the middle', () => {
    expect(() => createRealFft(12)).toThrow(/power of two/);
    const w = hannWindow(8);
    expect(w[0]).toBe(0);
    expect(w[4]).toBeCloseTo(1, 12);
  });
});

/** Test-side WAV writer for every encoding decodeWav claims to read. */
function writeWav(
  channels: Float32Array[],
  rate: number,
  encoding: { format: 1 | 3; bits: number; extensible?: boolean; extraChunk?: boolean },
): Uint8Array {
  const { format, bits, extensible = false, extraChunk = false } = encoding;
  const bytesPerSample = bits / 8;
  const frames = channels[0]!.length;
  const dataBytes = frames * channels.length * bytesPerSample;
  const fmtBytes = extensible ? 40 : 16;
  const extra = extraChunk ? 8 + 3 + 1 : 0; // an odd-sized LIST chunk and its pad byte
  const bytes = new Uint8Array(12 + 8 + fmtBytes + extra + 8 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, s: string) =>
    [...s].forEach((ch, i) => (bytes[at + i] = ch.charCodeAt(0)));
  ascii(0, 'RIFF');
  view.setUint32(4, bytes.length - 8, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, fmtBytes, true);
  view.setUint16(20, extensible ? 0xfffe : format, true);
  view.setUint16(22, channels.length, true);
  view.setUint32(24, rate, true);
  view.setUint32(28, rate * channels.length * bytesPerSample, true);
  view.setUint16(32, channels.length * bytesPerSample, true);
  view.setUint16(34, bits, true);
  if (extensible) {
    view.setUint16(36, 22, true);
    view.setUint16(38, bits, true);
    view.setUint32(40, 0, true);
    view.setUint16(44, format, true); // GUID 0000000X-0000-0010-8000-00aa00389b71
    bytes.set([0, 0, 0, 0, 0x10, 0, 0x80, 0, 0, 0xaa, 0, 0x38, 0x9b, 0x71], 46);
  }
  let at = 20 + fmtBytes;
  if (extraChunk) {
    ascii(at, 'LIST');
    view.setUint32(at + 4, 3, true);
    at += 12;
  }
  ascii(at, 'data');
  view.setUint32(at + 4, dataBytes, true);
  at += 8;
  for (let f = 0; f < frames; f++) {
    for (const channel of channels) {
      const v = channel[f]!;
      if (format === 3) {
        if (bits === 32) view.setFloat32(at, v, true);
        else view.setFloat64(at, v, true);
      } else if (bits === 8) {
        view.setUint8(at, Math.round(v * 128) + 128);
      } else if (bits === 16) {
        view.setInt16(at, Math.round(v * 32768), true);
      } else if (bits === 24) {
        const s = Math.round(v * 8388608);
        view.setUint8(at, s & 0xff);
        view.setUint8(at + 1, (s >> 8) & 0xff);
        view.setInt8(at + 2, s >> 16);
      } else {
        view.setInt32(at, Math.round(v * 2147483648), true);
      }
      at += bytesPerSample;
    }
  }
  return bytes;
}

describe('decodeWav', () => {
  // Values exactly representable at 8 bits, so every encoding must return them unchanged.
  const left = Float32Array.from([0, 0.5, -0.5, -1, 0.25, 127 / 128, -0.125]);
  const right = Float32Array.from([0.125, -0.5, 0.5, 0.75, -0.25, -127 / 128, 1 / 128]);

  const encodings = [
    { format: 1, bits: 8 },
    { format: 1, bits: 16 },
    { format: 1, bits: 24 },
    { format: 1, bits: 32 },
    { format: 3, bits: 32 },
    { format: 3, bits: 64 },
    { format: 1, bits: 16, extensible: true },
    { format: 1, bits: 24, extensible: true },
    { format: 3, bits: 32, extensible: true, extraChunk: true },
    { format: 1, bits: 16, extraChunk: true },
  ] as const;

  for (const encoding of encodings) {
    it(`reads ${encoding.format === 1 ? 'PCM' : 'float'} ${encoding.bits}-bit${'extensible' in encoding ? ' extensible' : ''}${'extraChunk' in encoding ? ' after an odd chunk' : ''}`, () => {
      const decoded = decodeWav(writeWav([left, right], 22050, encoding));
      expect(decoded.sampleRate).toBe(22050);
      expect(decoded.channels.map((c) => [...c])).toEqual([[...left], [...right]]);
    });
  }

  it('reads a file whose data chunk claims more bytes than it holds', () => {
    const bytes = writeWav([left], 8000, { format: 1, bits: 16 });
    new DataView(bytes.buffer).setUint32(40, 0xffffffff, true);
    expect([...decodeWav(bytes.subarray(0, bytes.length - 1)).channels[0]!]).toEqual(
      [...left].slice(0, -1),
    );
  });

  it('says why it cannot read other files', () => {
    const adpcm = writeWav([left], 8000, { format: 1, bits: 16 });
    new DataView(adpcm.buffer).setUint16(20, 0x0002, true);
    expect(() => decodeWav(adpcm)).toThrow('Unsupported WAV encoding: format 0x0002 (ADPCM)');
    const float16 = writeWav([left], 8000, { format: 1, bits: 16 });
    new DataView(float16.buffer).setUint16(20, 3, true);
    expect(() => decodeWav(float16)).toThrow(
      'Unsupported WAV encoding: format 0x0003 with 16 bits per sample',
    );
    const mulaw = writeWav([left], 8000, { format: 1, bits: 16, extensible: true });
    new DataView(mulaw.buffer).setUint16(44, 0x0007, true);
    expect(() => decodeWav(mulaw)).toThrow(/format 0x0007/);
    expect(() => decodeWav(new TextEncoder().encode('ID3 not a wav file'))).toThrow(
      /Not a WAV file/,
    );
    expect(() => decodeWav(new TextEncoder().encode('RIFX....WAVE'))).toThrow(
      'Unsupported WAV container: RIFX',
    );
    expect(() => decodeWav(adpcm.subarray(0, 36))).toThrow(/no data chunk/);
  });

  it('refuses a header outside the limits before allocating for it', () => {
    const claiming = (rate: number, channels: number) => {
      const bytes = writeWav([left], 8000, { format: 1, bits: 16 });
      const view = new DataView(bytes.buffer);
      view.setUint32(24, rate, true);
      view.setUint16(22, channels, true);
      return bytes;
    };
    expect(() => decodeWav(claiming(0xffffffff, 1))).toThrow(
      'sample rate 4294967295 Hz is outside 1 Hz–768 kHz',
    );
    expect(() => decodeWav(claiming(0, 1))).toThrow('sample rate 0 Hz is outside 1 Hz–768 kHz');
    expect(() => decodeWav(claiming(8000, 65535))).toThrow('65535 channels is outside 1–32');
    expect(() => decodeWav(claiming(8000, 0))).toThrow('0 channels is outside 1–32');
    expect(decodeWav(claiming(768000, 32)).sampleRate).toBe(768000);
    // 2 MB of samples at 1 Hz claim 12 days.
    const slow = writeWav([new Float32Array(1 << 20)], 1, { format: 1, bits: 16 });
    expect(() => decodeWav(slow)).toThrow(
      'duration 1048576 s is over the limit of 3600 s (1 hour)',
    );
    expect(
      decodeWav(writeWav([new Float32Array(3600)], 1, { format: 1, bits: 8 })).sampleRate,
    ).toBe(1);
  });
});

describe('audio limits', () => {
  it('bounds the samples over all channels', () => {
    expect(() => checkAudioLimits(48000, 2, AUDIO_MAX_SAMPLES / 2)).not.toThrow();
    expect(() => checkAudioLimits(48000, 2, AUDIO_MAX_SAMPLES / 2 + 1)).toThrow(
      `33554433 samples × 2 channels is over the limit of ${AUDIO_MAX_SAMPLES} samples`,
    );
  });

  it('applies to decoded clips handed to the analysis, whatever their decoder', () => {
    const many = Array.from({ length: 33 }, () => new Float32Array(10));
    expect(() => analyzeAudio(many, RATE)).toThrow('33 channels is outside 1–32');
    expect(() => spectrogramImage(many, RATE)).toThrow('33 channels is outside 1–32');
    expect(() => audioStatistics([new Float32Array(10)], 1e6)).toThrow(
      'sample rate 1000000 Hz is outside 1 Hz–768 kHz',
    );
  });

  it('keeps STFT frames bounded whatever the rate', () => {
    expect(stftLayout(16000, 16000)).toMatchObject({ frameLength: 400, hop: 160, fftSize: 512 });
    expect(stftLayout(768000, 768000)).toMatchObject({ frameLength: 19200, fftSize: 32768 });
    expect(stftLayout(10, 0xffffffff)).toMatchObject({ frameLength: 19200, fftSize: 32768 });
  });
});

describe('encodeWav', () => {
  it('round-trips through decodeWav within one 16-bit step, clipping beyond ±1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.float({ min: -1, max: 1, noNaN: true }), { maxLength: 50 }),
        fc.integer({ min: 1, max: 192000 }),
        (samples, rate) => {
          const input = Float32Array.from(samples);
          const decoded = decodeWav(encodeWav([input, input], rate));
          expect(decoded.sampleRate).toBe(rate);
          expect(decoded.channels).toHaveLength(2);
          decoded.channels[1]!.forEach((v, i) =>
            expect(Math.abs(v - input[i]!)).toBeLessThanOrEqual(1 / 32768),
          );
        },
      ),
    );
    expect([...decodeWav(encodeWav([Float32Array.from([3, -3])], 8000)).channels[0]!]).toEqual([
      32767 / 32768,
      -1,
    ]);
  });
});

describe('audioStatistics', () => {
  it('measures a 440 Hz sine: duration, RMS −9 dBFS, peak and centroid near 440 Hz', () => {
    const s = audioStatistics([sine(440, 1, 0.5)], RATE);
    expect(s.duration).toBe(1);
    expect(s).toMatchObject({ sample_rate: RATE, channels: 1, silence_fraction: 0 });
    expect(s.rms).toBeCloseTo(0.5 / Math.SQRT2, 4);
    expect(s.rms_dbfs).toBeCloseTo(20 * Math.log10(0.5 / Math.SQRT2), 2);
    expect(s.peak).toBeGreaterThan(0.499);
    expect(s.peak_dbfs).toBeCloseTo(-6.02, 2);
    expect(Math.abs(s.spectral_centroid - 440)).toBeLessThan(22);
  });

  it('finds the centroid of white noise near a quarter of the sample rate', () => {
    const centroid = spectralCentroid(whiteNoise(1, 1, 0.3), RATE);
    expect(Math.abs(centroid - RATE / 4) / (RATE / 4)).toBeLessThan(0.1);
  });

  it('calls silence silent, with floored decibels and no centroid', () => {
    const s = audioStatistics([new Float32Array(RATE), new Float32Array(RATE)], RATE);
    expect(s).toMatchObject({
      channels: 2,
      silence_fraction: 1,
      rms: 0,
      rms_dbfs: MIN_DBFS,
      peak_dbfs: MIN_DBFS,
      spectral_centroid: 0,
    });
    expect(audioStatistics([new Float32Array(0)], RATE)).toMatchObject({
      duration: 0,
      silence_fraction: 1,
    });
  });

  it('counts 20 ms frames below −40 dBFS', () => {
    // 1 s: first half a tone at −20 dBFS RMS, second half noise at −50 dBFS RMS.
    const clip = new Float32Array(RATE);
    clip.set(sine(1000, 0.5, 0.1 * Math.SQRT2));
    clip.set(whiteNoise(2, 0.5, 10 ** (-50 / 20)), RATE / 2);
    const s = audioStatistics([clip], RATE);
    expect(s.silence_fraction).toBeCloseTo(0.5, 6);
    // Only the tone's frames count towards the centroid.
    expect(Math.abs(s.spectral_centroid - 1000)).toBeLessThan(50);
  });

  it('counts clipped samples over every channel', () => {
    // 16 samples; clipped (|x| ≥ 0.999): 1, −1, 0.999, 1.2 on the left and −1 on the right.
    const left = Float32Array.from([1, -1, 0.5, 0.999, -0.9989, 0, 1.2, 0.2]);
    const right = Float32Array.from([0, 0, 0, 0, 0, 0, 0, -1]);
    expect(CLIP_LEVEL).toBe(0.999);
    expect(audioStatistics([left, right], RATE).clipped_fraction).toBe(5 / 16);
    // A full-scale sine spends 4·acos(0.999)/2π of its period at or above 0.999.
    const expected = (4 * Math.acos(0.999)) / (2 * Math.PI);
    expect(audioStatistics([sine(50, 1, 1)], RATE).clipped_fraction).toBeCloseTo(expected, 2);
    expect(audioStatistics([sine(440, 1, 0.5)], RATE).clipped_fraction).toBe(0);
    expect(audioStatistics([new Float32Array(0)], RATE).clipped_fraction).toBe(0);
  });

  it('rejects channels of different lengths and bad sample rates', () => {
    expect(() => audioStatistics([new Float32Array(3), new Float32Array(4)], RATE)).toThrow(
      /equal lengths/,
    );
    expect(() => audioStatistics([new Float32Array(3)], 0)).toThrow(/sample rate/);
    expect(() => audioStatistics([], RATE)).toThrow(/at least one channel/);
  });
});

describe('audioDescriptor', () => {
  const finiteUnit = (v: Float32Array) => {
    expect(v).toHaveLength(AUDIO_DESCRIPTOR_DIMENSION);
    expect(v.every(Number.isFinite)).toBe(true);
    expect(Math.sqrt(dot(v, v))).toBeCloseTo(1, 5);
  };

  it('is a finite unit vector, also for silence and clips shorter than one frame', () => {
    finiteUnit(audioDescriptor([sine(440, 1, 0.5)], RATE));
    finiteUnit(audioDescriptor([new Float32Array(RATE)], RATE));
    finiteUnit(audioDescriptor([new Float32Array(0)], RATE));
    finiteUnit(audioDescriptor([sine(440, 0.005, 0.5)], RATE));
  });

  it('puts the same tone at two loudnesses closer than the tone and white noise', () => {
    const quiet = audioDescriptor([sine(440, 1, 0.1)], RATE);
    const loud = audioDescriptor([sine(440, 1, 0.8)], RATE);
    const noise = audioDescriptor([whiteNoise(3, 1, 0.3)], RATE);
    expect(dot(quiet, loud)).toBeGreaterThan(0.99);
    expect(dot(quiet, loud)).toBeGreaterThan(dot(quiet, noise) + 0.1);
  });

  it('puts a tone closer to a nearby tone than to one five octaves up', () => {
    const a = audioDescriptor([sine(440, 1, 0.5)], RATE);
    expect(dot(a, audioDescriptor([sine(466, 1, 0.5)], RATE))).toBeGreaterThan(
      dot(a, audioDescriptor([sine(7040, 1, 0.5)], RATE)),
    );
  });

  it('agrees with analyzeAudio', () => {
    const clip = [sine(300, 0.5, 0.3), whiteNoise(4, 0.5, 0.05)];
    const analysis = analyzeAudio(clip, RATE);
    expect(analysis.statistics).toEqual(audioStatistics(clip, RATE));
    expect([...analysis.descriptor]).toEqual([...audioDescriptor(clip, RATE)]);
  });
});
