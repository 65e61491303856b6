// True once `active` has stayed true for `delayMs` (the 5000 ms delayed-loading message).
import { useEffect, useState } from 'react';

export const DELAYED_LOADING_MS = 5000;

export function useDelayedFlag(active: boolean, delayMs = DELAYED_LOADING_MS): boolean {
  const [elapsed, setElapsed] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setElapsed(true), delayMs);
    return () => {
      clearTimeout(timer);
      setElapsed(false);
    };
  }, [active, delayMs]);
  return active && elapsed;
}
