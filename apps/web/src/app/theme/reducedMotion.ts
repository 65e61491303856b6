// Follows the system's "reduce motion" setting: antd's dialogs, popovers and drawers then appear
// and leave at once instead of zooming and fading.
import type { ThemeConfig } from 'antd';
import { useEffect, useState } from 'react';

export const REDUCED_MOTION_QUERY = '(prefers-reduced-motion: reduce)';

function reducedMotionQuery(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(REDUCED_MOTION_QUERY) : null;
}

export function usePrefersReducedMotion(): boolean {
  const [reduced, setReduced] = useState(() => Boolean(reducedMotionQuery()?.matches));
  useEffect(() => {
    const query = reducedMotionQuery();
    if (!query?.addEventListener) return;
    const onChange = (event: MediaQueryListEvent) => setReduced(event.matches);
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, []);
  return reduced;
}

/** The theme's antd config, with motion switched off when the user asked for less motion. */
export function withMotionPreference(config: ThemeConfig, reduced: boolean): ThemeConfig {
  return reduced ? { ...config, token: { ...config.token, motion: false } } : config;
}
