// Time source for services; tests pass their own to reach expiry without waiting.
export type Clock = () => number;
export const systemClock: Clock = () => Date.now();

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
