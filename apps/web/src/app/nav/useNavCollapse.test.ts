import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { readDeploymentPreferences } from '../../lib/deploymentPreferences';
import { NAV_COLLAPSE_MS, NAV_OPEN_DEBOUNCE_MS, useNavCollapse } from './useNavCollapse';

beforeEach(() => {
  // A wide screen unless a test says otherwise.
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
  window.localStorage.clear();
});

const ctrlSlash = () =>
  act(() => {
    window.dispatchEvent(new KeyboardEvent('keydown', { key: '/', ctrlKey: true }));
  });

test('Ctrl+/ toggles the nav through collapsing (300 ms) and remembers it per deployment', () => {
  vi.useFakeTimers();
  const { result } = renderHook(() => useNavCollapse('deployment-a'));
  expect(result.current.phase).toBe('open');
  ctrlSlash();
  expect(result.current.collapsed).toBe(true);
  expect(result.current.phase).toBe('collapsing');
  act(() => vi.advanceTimersByTime(NAV_COLLAPSE_MS));
  expect(result.current.phase).toBe('collapsed');
  expect(readDeploymentPreferences('deployment-a').mainNavIsCollapsed).toBe(true);
  expect(readDeploymentPreferences('deployment-b').mainNavIsCollapsed).toBe(false);

  const again = renderHook(() => useNavCollapse('deployment-a'));
  expect(again.result.current.phase).toBe('collapsed');
  again.unmount();

  ctrlSlash();
  expect(result.current.phase).toBe('open');
  expect(readDeploymentPreferences('deployment-a').mainNavIsCollapsed).toBe(false);
});

test('hovering a collapsed nav reveals it after 200 ms; leaving sooner does not', () => {
  vi.useFakeTimers();
  const { result } = renderHook(() => useNavCollapse('deployment-a'));
  act(() => result.current.setCollapsed(true));
  act(() => result.current.startReveal());
  act(() => vi.advanceTimersByTime(NAV_OPEN_DEBOUNCE_MS - 50));
  act(() => result.current.endReveal());
  act(() => vi.advanceTimersByTime(500));
  expect(result.current.revealed).toBe(false);
  act(() => result.current.startReveal());
  act(() => vi.advanceTimersByTime(NAV_OPEN_DEBOUNCE_MS));
  expect(result.current.revealed).toBe(true);
});

test('a narrow screen starts with the nav collapsed without changing the stored choice', () => {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(max-width: 1299px)',
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
  const { result } = renderHook(() => useNavCollapse('deployment-a'));
  expect(result.current.collapsed).toBe(true);
  expect(readDeploymentPreferences('deployment-a').mainNavIsCollapsed).toBe(false);
  vi.unstubAllGlobals();
});
