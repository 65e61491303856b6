// The heatmap opacity slider: it moves at once, and hands a change on once it has rested 200 ms,
// so dragging does not rewrite the explorer's URL at every step.
import '../test/setup';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import {
  AttributionOpacitySlider,
  AttributionOverlay,
  OPACITY_COMMIT_MS,
} from './AttributionOverlay';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

test('the slider runs 0 to 100 and keeps a change after 200 ms of quiet', () => {
  const onChange = vi.fn();
  render(<AttributionOpacitySlider label="Opacity" value={50} onChange={onChange} />);
  const handle = screen.getByRole('slider', { name: 'Opacity' });
  expect(handle.getAttribute('aria-valuemin')).toBe('0');
  expect(handle.getAttribute('aria-valuemax')).toBe('100');
  fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
  fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
  expect(handle.getAttribute('aria-valuenow')).toBe('52');
  act(() => vi.advanceTimersByTime(OPACITY_COMMIT_MS - 1));
  expect(onChange).not.toHaveBeenCalled();
  act(() => vi.advanceTimersByTime(1));
  expect(onChange).toHaveBeenCalledTimes(1);
  expect(onChange).toHaveBeenCalledWith(52);
});

test('the overlay names its heatmap and opacity and never takes the pointer', () => {
  render(<AttributionOverlay src="/heat.png" opacity={35} style={{ position: 'absolute' }} />);
  const overlay = screen.getByTestId('attribution-overlay');
  expect(overlay.getAttribute('data-src')).toBe('/heat.png');
  expect(overlay.getAttribute('data-opacity')).toBe('35');
  expect(overlay.style.pointerEvents).toBe('none');
});
