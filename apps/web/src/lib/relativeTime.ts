// 'Updated 5 minutes ago': a time in the past (or near future) in words, for lists and headers.
const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['year', 365 * 24 * 3600 * 1000],
  ['month', 30 * 24 * 3600 * 1000],
  ['week', 7 * 24 * 3600 * 1000],
  ['day', 24 * 3600 * 1000],
  ['hour', 3600 * 1000],
  ['minute', 60 * 1000],
];

const format = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** `timestampMs` relative to `now`: 'just now' under a minute, else '3 hours ago', 'yesterday'… */
export function formatRelativeTime(timestampMs: number, now = Date.now()): string {
  const delta = timestampMs - now;
  const size = Math.abs(delta);
  for (const [unit, length] of UNITS) {
    if (size >= length) return format.format(Math.round(delta / length), unit);
  }
  return 'just now';
}
