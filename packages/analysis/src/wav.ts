// WAV (RIFF/WAVE) decoding of PCM integer and IEEE float data to float samples, and 16-bit PCM
// encoding; pure byte arithmetic on Uint8Arrays.

import { checkAudioLimits } from './audio-limits.js';

export interface DecodedAudio {
  sampleRate: number;
  /** One Float32Array per channel, samples in [−1, 1]. */
  channels: Float32Array[];
}

const WAVE_FORMAT_PCM = 0x0001;
const WAVE_FORMAT_IEEE_FLOAT = 0x0003;
const WAVE_FORMAT_EXTENSIBLE = 0xfffe;

function fourCC(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(bytes[at]!, bytes[at + 1]!, bytes[at + 2]!, bytes[at + 3]!);
}

function hex4(format: number): string {
  return `0x${format.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * Decodes a RIFF/WAVE file: PCM integer samples of 8 (unsigned), 16, 24 or 32 bits, IEEE float
 * of 32 or 64 bits, either plain or WAVE_FORMAT_EXTENSIBLE. Integers are divided by 2^(bits−1)
 * of their container (so −32768 → −1). A data chunk that claims more bytes than the file holds
 * (streaming writers) is read up to the last whole frame. The header's rate, channel count and
 * the frames present must be within the limits of audio-limits.ts before anything is allocated.
 * Anything else throws an Error that says why, e.g. "Unsupported WAV encoding: format 0x0002
 * (ADPCM)" or "sample rate 4294967295 Hz is outside 1 Hz–768 kHz".
 */
export function decodeWav(bytes: Uint8Array): DecodedAudio {
  if (bytes.length < 12 || fourCC(bytes, 0) !== 'RIFF' || fourCC(bytes, 8) !== 'WAVE') {
    const container = bytes.length >= 4 ? fourCC(bytes, 0) : '';
    if (container === 'RF64' || container === 'RIFX') {
      throw new Error(`Unsupported WAV container: ${container}`);
    }
    throw new Error('Not a WAV file: missing RIFF/WAVE header');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let format:
    | { tag: number; channels: number; sampleRate: number; blockAlign: number; bits: number }
    | undefined;
  let data: { offset: number; length: number } | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const id = fourCC(bytes, at);
    const size = view.getUint32(at + 4, true);
    const body = at + 8;
    if (id === 'fmt ') {
      if (size < 16 || body + 16 > bytes.length)
        throw new Error('Invalid WAV file: fmt chunk too short');
      let tag = view.getUint16(body, true);
      if (tag === WAVE_FORMAT_EXTENSIBLE) {
        if (size < 40 || body + 40 > bytes.length) {
          throw new Error('Invalid WAV file: WAVE_FORMAT_EXTENSIBLE fmt chunk too short');
        }
        // The sub-format GUID starts with the plain format code.
        tag = view.getUint16(body + 24, true);
      }
      format = {
        tag,
        channels: view.getUint16(body + 2, true),
        sampleRate: view.getUint32(body + 4, true),
        blockAlign: view.getUint16(body + 12, true),
        bits: view.getUint16(body + 14, true),
      };
    } else if (id === 'data') {
      data = { offset: body, length: Math.min(size, bytes.length - body) };
    }
    at = body + size + (size % 2); // chunks are padded to an even length
  }
  if (format === undefined) throw new Error('Invalid WAV file: no fmt chunk');
  if (data === undefined) throw new Error('Invalid WAV file: no data chunk');
  const { tag, channels, sampleRate, bits } = format;
  if (tag !== WAVE_FORMAT_PCM && tag !== WAVE_FORMAT_IEEE_FLOAT) {
    const names: Record<number, string> = {
      0x0002: 'ADPCM',
      0x0006: 'A-law',
      0x0007: 'µ-law',
      0x0011: 'IMA ADPCM',
      0x0055: 'MPEG Layer 3',
    };
    const name = names[tag];
    throw new Error(`Unsupported WAV encoding: format ${hex4(tag)}${name ? ` (${name})` : ''}`);
  }
  // Integer samples narrower than their container (e.g. 20 bits in 3 bytes) are left-justified,
  // so decoding by container width is exact.
  const bytesPerSample = Math.ceil(bits / 8);
  const supported =
    tag === WAVE_FORMAT_PCM
      ? bytesPerSample >= 1 && bytesPerSample <= 4
      : bits === 32 || bits === 64;
  if (!supported) {
    throw new Error(`Unsupported WAV encoding: format ${hex4(tag)} with ${bits} bits per sample`);
  }
  const frameBytes = bytesPerSample * channels;
  const frames = frameBytes > 0 ? Math.floor(data.length / frameBytes) : 0;
  checkAudioLimits(sampleRate, channels, frames);
  const out = Array.from({ length: channels }, () => new Float32Array(frames));
  const read = sampleReader(view, tag, bytesPerSample);
  for (let f = 0, p = data.offset; f < frames; f++) {
    for (let c = 0; c < channels; c++, p += bytesPerSample) out[c]![f] = read(p);
  }
  return { sampleRate, channels: out };
}

function sampleReader(view: DataView, tag: number, bytes: number): (at: number) => number {
  if (tag === WAVE_FORMAT_IEEE_FLOAT) {
    return bytes === 4 ? (at) => view.getFloat32(at, true) : (at) => view.getFloat64(at, true);
  }
  switch (bytes) {
    case 1:
      return (at) => (view.getUint8(at) - 128) / 128;
    case 2:
      return (at) => view.getInt16(at, true) / 32768;
    case 3:
      return (at) =>
        (view.getUint8(at) | (view.getUint8(at + 1) << 8) | (view.getInt8(at + 2) << 16)) / 8388608;
    default:
      return (at) => view.getInt32(at, true) / 2147483648;
  }
}

/**
 * 16-bit PCM WAV of the given channels (equal lengths, samples in [−1, 1], clipped beyond):
 * a 44-byte header and interleaved little-endian samples, each round(x·32768) clamped to
 * [−32768, 32767], so decodeWav returns every sample within 1/32768.
 */
export function encodeWav(channels: readonly Float32Array[], sampleRate: number): Uint8Array {
  if (channels.length < 1) throw new Error('encodeWav needs at least one channel');
  if (!Number.isInteger(sampleRate) || sampleRate < 1) {
    throw new Error(`encodeWav needs a positive integer sample rate, got ${sampleRate}`);
  }
  const frames = channels[0]!.length;
  if (channels.some((c) => c.length !== frames)) {
    throw new Error('encodeWav needs channels of equal length');
  }
  const count = channels.length;
  const dataBytes = frames * count * 2;
  const bytes = new Uint8Array(44 + dataBytes);
  const view = new DataView(bytes.buffer);
  const ascii = (at: number, text: string) => {
    for (let i = 0; i < 4; i++) bytes[at + i] = text.charCodeAt(i);
  };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + dataBytes, true);
  ascii(8, 'WAVE');
  ascii(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, WAVE_FORMAT_PCM, true);
  view.setUint16(22, count, true);
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * count * 2, true);
  view.setUint16(32, count * 2, true);
  view.setUint16(34, 16, true);
  ascii(36, 'data');
  view.setUint32(40, dataBytes, true);
  for (let f = 0, p = 44; f < frames; f++) {
    for (let c = 0; c < count; c++, p += 2) {
      const v = Math.round(channels[c]![f]! * 32768);
      view.setInt16(p, v > 32767 ? 32767 : v < -32768 ? -32768 : Number.isNaN(v) ? 0 : v, true);
    }
  }
  return bytes;
}
