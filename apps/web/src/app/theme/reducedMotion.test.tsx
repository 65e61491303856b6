import { act, cleanup, render, renderHook, screen } from '@testing-library/react';
import { theme as antdTheme } from 'antd';
import { afterEach, expect, test, vi } from 'vitest';
import { ThemeProvider } from './ThemeProvider';
import {
  REDUCED_MOTION_QUERY,
  usePrefersReducedMotion,
  withMotionPreference,
} from './reducedMotion';
import { THEMES } from './themes';

/** A matchMedia whose reduce-motion answer the test can change while the page is open. */
function stubReducedMotion(initial: boolean) {
  let matches = initial;
  const listeners = new Set<(event: MediaQueryListEvent) => void>();
  vi.stubGlobal('matchMedia', (query: string) => ({
    get matches() {
      return query === REDUCED_MOTION_QUERY && matches;
    },
    addEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => {
      if (query === REDUCED_MOTION_QUERY) listeners.add(listener);
    },
    removeEventListener: (_: string, listener: (event: MediaQueryListEvent) => void) => {
      listeners.delete(listener);
    },
  }));
  return (next: boolean) => {
    matches = next;
    for (const listener of listeners) listener({ matches: next } as MediaQueryListEvent);
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

test('the hook follows the system setting, also when it changes while the page is open', () => {
  const setReduced = stubReducedMotion(false);
  const { result } = renderHook(() => usePrefersReducedMotion());
  expect(result.current).toBe(false);
  act(() => setReduced(true));
  expect(result.current).toBe(true);
  act(() => setReduced(false));
  expect(result.current).toBe(false);
});

test('reduced motion switches antd motion off and keeps the rest of the theme', () => {
  const config = THEMES.darkBlue.config;
  const reduced = withMotionPreference(config, true);
  expect(reduced.token?.motion).toBe(false);
  expect(reduced.token?.colorPrimary).toBe(config.token?.colorPrimary);
  expect(reduced.algorithm).toBe(config.algorithm);
  expect(withMotionPreference(config, false)).toBe(config);
});

function MotionToken() {
  const { token } = antdTheme.useToken();
  return <span data-testid="motion">{String(token.motion)}</span>;
}

test('the app gives antd no motion when the user asked for less', () => {
  stubReducedMotion(true);
  render(
    <ThemeProvider>
      <MotionToken />
    </ThemeProvider>,
  );
  expect(screen.getByTestId('motion').textContent).toBe('false');
});

test('motion stays on by default', () => {
  stubReducedMotion(false);
  render(
    <ThemeProvider>
      <MotionToken />
    </ThemeProvider>,
  );
  expect(screen.getByTestId('motion').textContent).toBe('true');
});
