// The largest clip the analysis accepts, checked against what a file's header claims before any
// sample is allocated, so a few hostile header bytes cannot ask for gigabytes or hours of work.

/** Sample rates from 1 Hz to 768 kHz (the highest rate audio interfaces record at). */
export const AUDIO_MAX_SAMPLE_RATE = 768_000;
export const AUDIO_MAX_CHANNELS = 32;
/** Longest clip: one hour. */
export const AUDIO_MAX_SECONDS = 3600;
/**
 * Samples over all channels: 2^26 (about 67 million), 256 MiB as 32-bit floats — an hour of
 * 16 kHz mono, about 11½ minutes of 48 kHz stereo.
 */
export const AUDIO_MAX_SAMPLES = 2 ** 26;

const khz = (hz: number) => `${hz / 1000} kHz`;

/**
 * Throws an Error naming the problem when a clip of `frames` samples per channel is outside the
 * limits above, e.g. "sample rate 4294967295 Hz is outside 1 Hz–768 kHz".
 */
export function checkAudioLimits(sampleRate: number, channels: number, frames: number): void {
  if (!(sampleRate >= 1 && sampleRate <= AUDIO_MAX_SAMPLE_RATE)) {
    throw new Error(`sample rate ${sampleRate} Hz is outside 1 Hz–${khz(AUDIO_MAX_SAMPLE_RATE)}`);
  }
  if (!(channels >= 1 && channels <= AUDIO_MAX_CHANNELS)) {
    throw new Error(`${channels} channels is outside 1–${AUDIO_MAX_CHANNELS}`);
  }
  const seconds = frames / sampleRate;
  if (seconds > AUDIO_MAX_SECONDS) {
    throw new Error(
      `duration ${Math.round(seconds)} s is over the limit of ${AUDIO_MAX_SECONDS} s (1 hour)`,
    );
  }
  if (frames * channels > AUDIO_MAX_SAMPLES) {
    throw new Error(
      `${frames} samples × ${channels} channels is over the limit of ${AUDIO_MAX_SAMPLES} samples`,
    );
  }
}
