// The hover preview appears once the pointer rests on a point for 200 ms, and not for a point
// merely passed over.
import { act, renderHook } from '@testing-library/react';
import { afterEach, expect, test, vi } from 'vitest';
import { HOVER_DEBOUNCE_MS } from '../HoverPreview';
import type { DecodedPoints } from '../points';
import { useHoverPoint } from './useHoverPoint';

const parsed: DecodedPoints = {
  rows: new Uint32Array([40, 41]),
  version: 5,
  x: new Float32Array(2),
  y: new Float32Array(2),
  colors: null,
};

afterEach(() => {
  vi.useRealTimers();
});

test('the hovered point shows after the pointer rests, and goes when it leaves', () => {
  vi.useFakeTimers();
  const view = renderHook(() => useHoverPoint(parsed));
  act(() => view.result.current.onHover(0));
  act(() => view.result.current.onHover(1));
  act(() => vi.advanceTimersByTime(HOVER_DEBOUNCE_MS - 1));
  expect(view.result.current.hovered).toBeNull();
  act(() => vi.advanceTimersByTime(1));
  expect(view.result.current.hovered).toMatchObject({ row: 41, version: 5 });
  act(() => view.result.current.onPointerLeave());
  expect(view.result.current.hovered).toBeNull();
});
