// The audio view as a user reads it: the visible-duration readout names the window drawn, and
// the time and frequency axes label the waveform and spectrogram, following zoom and scroll.
import '../../../test/setup';
import { act, fireEvent, render, screen } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import { ThemeProvider } from '../../../app/theme/ThemeProvider';
import { imageItem } from '../../../test/exploreData';
import { AudioView } from './AudioView';

const VIEW_WIDTH = 1000;
const SPECTROGRAM_HEIGHT = 300;

beforeEach(() => {
  // happy-dom lays nothing out: give the strip a width and the spectrogram a height.
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'audio-scroll' ? VIEW_WIDTH : 0;
  });
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockImplementation(function (
    this: HTMLElement,
  ) {
    return this.dataset.testid === 'spectrogram' ? SPECTROGRAM_HEIGHT : 0;
  });
});
afterEach(() => vi.restoreAllMocks());

/** A clip (1.4 s at 16 kHz unless told) in a dataset whose clips run 0.6 to 2 s. */
function renderClip(
  duration = 1.4,
  metadata: Record<string, number> = { 'audio.sample_rate': 16_000 },
) {
  const item = {
    ...imageItem(1),
    data_level: 'audio' as const,
    media_type: 'audio' as const,
    src: null,
    spectrogram_src: '/api/spectrograms/1.webp',
    width: null,
    height: null,
    duration,
    objects: [],
    metadata,
  };
  return render(
    <ThemeProvider>
      <AudioView
        item={item}
        durations={{ min_duration: 0.6, max_duration: 2, default_duration: 2 }}
        toggleRef={createRef()}
      />
    </ThemeProvider>,
  );
}

const labels = (testId: string) => screen.getAllByTestId(testId).map((tick) => tick.textContent);

test('a clip shorter than the dataset window reads its own length and is drawn whole', () => {
  renderClip();
  expect(screen.getByTestId('visible-duration').textContent).toBe('1.4 s');
  const slider = screen.getByRole('slider', { name: 'Visible duration' });
  expect(slider.getAttribute('aria-valuemax')).toBe('1.4');
  expect(slider.getAttribute('aria-valuenow')).toBe('1.4');
  // 1.4 s across 1000 px: a tick every 0.2 s, from the start to the end of the clip.
  expect(labels('time-tick')).toEqual([
    '0 s',
    '0.2 s',
    '0.4 s',
    '0.6 s',
    '0.8 s',
    '1 s',
    '1.2 s',
    '1.4 s',
  ]);
  // The spectrogram's log band at 16 kHz is 40 Hz to 8 kHz.
  expect(labels('frequency-tick')).toEqual([
    '50 Hz',
    '100 Hz',
    '200 Hz',
    '500 Hz',
    '1 kHz',
    '2 kHz',
    '5 kHz',
  ]);
});

test('a clip length off the 0.1 s grid reads with two decimals', () => {
  renderClip(0.54);
  expect(screen.getByTestId('visible-duration').textContent).toBe('0.54 s');
  expect(labels('time-tick').at(-1)).toBe('0.5 s');
});

test('zooming in and scrolling move the time axis with the strip', () => {
  renderClip();
  const slider = screen.getByRole('slider', { name: 'Visible duration' });
  act(() => slider.focus());
  fireEvent.keyDown(slider, { key: 'Home', code: 'Home', keyCode: 36, which: 36 });
  // The dataset's shortest clip, 0.6 s, is the narrowest window: 1667 px a second.
  expect(screen.getByTestId('visible-duration').textContent).toBe('0.6 s');
  expect(labels('time-tick')[1]).toBe('0.05 s');
  expect(labels('time-tick')).not.toContain('1.4 s');
  const scroller = screen.getByTestId('audio-scroll');
  fireEvent.scroll(scroller, { target: { scrollLeft: (0.8 * VIEW_WIDTH) / 0.6 } });
  // Scrolled to 0.8 s: the end of the clip is in view, its start is not.
  expect(labels('time-tick')).toContain('1.4 s');
  expect(labels('time-tick')).not.toContain('0.1 s');
});

test('without a known sample rate there is no frequency axis, but time still has one', () => {
  renderClip(3, {});
  expect(screen.queryByTestId('frequency-axis')).toBeNull();
  expect(screen.queryAllByTestId('frequency-tick')).toHaveLength(0);
  // A clip longer than the dataset's default window: 2 s of it in view, ticks for that much.
  expect(screen.getByTestId('visible-duration').textContent).toBe('2.0 s');
  expect(labels('time-tick')).toContain('1 s');
  expect(labels('time-tick')).not.toContain('3 s');
});
