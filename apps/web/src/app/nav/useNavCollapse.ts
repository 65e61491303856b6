// The main navigation's collapse state: open, collapsing (300 ms) or collapsed; hover reveals a
// collapsed nav after a 200 ms debounce; Ctrl+/ toggles; the choice is stored per deployment.
import { useCallback, useEffect, useRef, useState } from 'react';
import {
  readDeploymentPreferences,
  updateDeploymentPreferences,
} from '../../lib/deploymentPreferences';

export const NAV_COLLAPSE_MS = 300;
export const NAV_OPEN_DEBOUNCE_MS = 200;

export type NavPhase = 'open' | 'collapsing' | 'collapsed';

/** Below this width the page needs the room: the nav starts collapsed (docs/product.md, Shell §9). */
export const NARROW_SCREEN_PX = 1300;
const NARROW_QUERY = `(max-width: ${NARROW_SCREEN_PX - 1}px)`;

function narrowScreen(): MediaQueryList | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia(NARROW_QUERY) : null;
}

export function isToggleShortcut(
  event: Pick<KeyboardEvent, 'ctrlKey' | 'metaKey' | 'key' | 'code'>,
) {
  return (event.ctrlKey || event.metaKey) && (event.key === '/' || event.code === 'Slash');
}

export function useNavCollapse(deploymentId: string) {
  const [collapsed, setCollapsed] = useState(
    () =>
      readDeploymentPreferences(deploymentId).mainNavIsCollapsed ||
      Boolean(narrowScreen()?.matches),
  );
  const [phase, setPhase] = useState<NavPhase>(collapsed ? 'collapsed' : 'open');
  const [revealed, setRevealed] = useState(false);
  const revealTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const phaseTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  const setCollapsedAndStore = useCallback(
    (next: boolean) => {
      setCollapsed(next);
      setRevealed(false);
      clearTimeout(revealTimer.current);
      clearTimeout(phaseTimer.current);
      updateDeploymentPreferences(deploymentId, { mainNavIsCollapsed: next });
      if (next) {
        setPhase('collapsing');
        phaseTimer.current = setTimeout(() => setPhase('collapsed'), NAV_COLLAPSE_MS);
      } else {
        setPhase('open');
      }
    },
    [deploymentId],
  );

  const toggle = useCallback(
    () => setCollapsedAndStore(!collapsed),
    [collapsed, setCollapsedAndStore],
  );

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (!isToggleShortcut(event)) return;
      event.preventDefault();
      toggle();
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toggle]);

  // Crossing the narrow-screen breakpoint collapses the nav, or restores the stored choice,
  // without changing what is stored.
  useEffect(() => {
    const query = narrowScreen();
    if (!query?.addEventListener) return;
    const onChange = (event: MediaQueryListEvent) => {
      const next = event.matches || readDeploymentPreferences(deploymentId).mainNavIsCollapsed;
      setCollapsed(next);
      setRevealed(false);
      setPhase(next ? 'collapsed' : 'open');
    };
    query.addEventListener('change', onChange);
    return () => query.removeEventListener('change', onChange);
  }, [deploymentId]);

  useEffect(
    () => () => {
      clearTimeout(revealTimer.current);
      clearTimeout(phaseTimer.current);
    },
    [],
  );

  /** The pointer reached the collapsed nav's edge: reveal it unless it leaves within 200 ms. */
  const startReveal = useCallback(() => {
    if (!collapsed) return;
    clearTimeout(revealTimer.current);
    revealTimer.current = setTimeout(() => setRevealed(true), NAV_OPEN_DEBOUNCE_MS);
  }, [collapsed]);

  const endReveal = useCallback(() => {
    clearTimeout(revealTimer.current);
    setRevealed(false);
  }, []);

  return {
    collapsed,
    phase,
    revealed: collapsed && revealed,
    toggle,
    setCollapsed: setCollapsedAndStore,
    startReveal,
    endReveal,
  };
}
