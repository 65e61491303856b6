// The 'Item Details' viewer over the explorer: every shown item dispatches `loupe:viewer-item`
// and sets `data-item-id` on the body, so steps wait for that instead of sleeping.
import type { Locator, Page } from 'playwright-core';

declare global {
  interface Window {
    __loupeViewerItems?: { id: string; index: number }[];
    __loupeViewerClosed?: boolean;
  }
}

export class ItemViewer {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog').filter({ hasText: 'Item Details' });
  }

  body(): Locator {
    return this.page.getByTestId('item-viewer-body');
  }

  counter(): Locator {
    return this.page.getByTestId('viewer-counter');
  }

  async itemId(): Promise<string | null> {
    return this.body().getAttribute('data-item-id');
  }

  /** Starts recording `loupe:viewer-item` events (call before the viewer opens). */
  async record(): Promise<void> {
    await this.page.evaluate(() => {
      window.__loupeViewerItems = [];
      window.addEventListener('loupe:viewer-item', (event) => {
        window.__loupeViewerItems?.push(
          (event as CustomEvent<{ id: string; index: number }>).detail,
        );
      });
    });
  }

  /** Waits until the viewer announced the item at `index` (0-based); answers its id. */
  async waitForItemAt(index: number): Promise<string> {
    const handle = await this.page.waitForFunction(
      (position) => window.__loupeViewerItems?.findLast((item) => item.index === position)?.id,
      index,
      { timeout: 60_000 },
    );
    const id = (await handle.jsonValue()) as string;
    await this.page.locator(`[data-testid="item-viewer-body"][data-item-id="${id}"]`).waitFor();
    return id;
  }

  /** Opens the viewer on a grid card with a double-click; answers the shown item's id. */
  async openByDoubleClick(card: Locator): Promise<string> {
    await this.record();
    await card.dblclick();
    await this.dialog().waitFor();
    return this.waitForItemAt(0);
  }

  /** Opens the viewer on a grid card with Enter on the focused card. */
  async openByEnter(card: Locator, index = 0): Promise<string> {
    await this.record();
    await card.focus();
    await this.page.keyboard.press('Enter');
    await this.dialog().waitFor();
    return this.waitForItemAt(index);
  }

  /** Waits until the viewer shows the item `id`. */
  async waitForItem(id: string): Promise<void> {
    await this.page
      .locator(`[data-testid="item-viewer-body"][data-item-id="${id.replace(/["\\]/g, '\\$&')}"]`)
      .waitFor({ timeout: 60_000 });
  }

  /** Starts watching whether the viewer closes (its body leaves the page) from now on. */
  async watchClosing(): Promise<void> {
    await this.page.evaluate(() => {
      window.__loupeViewerClosed = false;
      new MutationObserver((_, observer) => {
        if (!document.querySelector('[data-testid="item-viewer-body"]')) {
          window.__loupeViewerClosed = true;
          observer.disconnect();
        }
      }).observe(document.body, { childList: true, subtree: true });
    });
  }

  /** Whether the viewer closed since `watchClosing`. */
  async closedSinceWatching(): Promise<boolean> {
    return this.page.evaluate(() => window.__loupeViewerClosed === true);
  }

  /** Presses → and waits for the viewer to show the next position. */
  async next(from: number): Promise<string> {
    await this.page.keyboard.press('ArrowRight');
    return this.waitForItemAt(from + 1);
  }

  boxes(): Locator {
    return this.page.getByTestId('object-box');
  }

  audio(): Locator {
    return this.page.getByTestId('viewer-audio');
  }

  /** Presses Space and waits until the audio element plays and its time moves on. */
  async playWithSpace(): Promise<number> {
    await this.page.waitForFunction(() => {
      const audio = document.querySelector<HTMLAudioElement>('[data-testid="viewer-audio"]');
      return audio !== null && audio.readyState >= HTMLMediaElement.HAVE_METADATA;
    });
    await this.page.keyboard.press(' ');
    const handle = await this.page.waitForFunction(
      () => {
        const audio = document.querySelector<HTMLAudioElement>('[data-testid="viewer-audio"]');
        return audio && !audio.paused && audio.currentTime > 0 ? audio.currentTime : null;
      },
      undefined,
      { timeout: 30_000 },
    );
    return (await handle.jsonValue()) as number;
  }

  /** The word error types of the transcript alignment, in column order. */
  async wordErrorTypes(): Promise<string[]> {
    await this.page.getByTestId('transcript-alignment').waitFor();
    return this.page
      .getByTestId('word-column')
      .evaluateAll((columns) => columns.map((column) => column.getAttribute('data-type') ?? ''));
  }

  async searchMetadata(text: string): Promise<void> {
    await this.page.getByPlaceholder('Search metadata').fill(text);
  }

  /**
   * The audio view's readouts once its axes are drawn: the clip length (from the time readout
   * '0.00 / 1.43 s'), the visible duration shown, the slider's top and the axes' tick labels.
   */
  async audioAxes(): Promise<{
    clip: number;
    visible: string;
    sliderMax: number;
    timeTicks: string[];
    frequencyTicks: string[];
  }> {
    await this.page.getByTestId('time-tick').first().waitFor();
    await this.page.getByTestId('frequency-tick').first().waitFor();
    const labels = (testId: string) =>
      this.page
        .getByTestId(testId)
        .evaluateAll((ticks) => ticks.map((tick) => tick.textContent ?? ''));
    const time = (await this.page.getByTestId('audio-time').textContent()) ?? '';
    const slider = this.page.getByRole('slider', { name: 'Visible duration' });
    return {
      clip: Number(/\/ ([\d.]+) s/.exec(time)?.[1]),
      visible: (await this.page.getByTestId('visible-duration').textContent()) ?? '',
      sliderMax: Number(await slider.getAttribute('aria-valuemax')),
      timeTicks: await labels('time-tick'),
      frequencyTicks: await labels('frequency-tick'),
    };
  }

  /**
   * The spectrogram's height and the free height left between the audio view's content (its last
   * part: the transcript, or the strip when there is none) and the filmstrip, in px.
   */
  async audioLayout(): Promise<{ spectrogram: number; freeBelow: number }> {
    return this.page.evaluate(() => {
      const spectrogram = document.querySelector('[data-testid="spectrogram"]');
      const view = document.querySelector('[data-testid="audio-view"]');
      const filmstrip = document.querySelector('nav[aria-label="Neighbouring items"]');
      const parts = Array.from(view?.children ?? []).filter(
        (part) => part.getBoundingClientRect().height > 0,
      );
      const bottom = parts.at(-1)?.getBoundingClientRect().bottom ?? 0;
      return {
        spectrogram: spectrogram?.getBoundingClientRect().height ?? 0,
        freeBelow: (filmstrip?.getBoundingClientRect().top ?? 0) - bottom,
      };
    });
  }

  /** Escape closes the viewer; waits until the dialog is gone. */
  async closeWithEscape(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.body().waitFor({ state: 'detached' });
  }

  /** The class legend's entries (class names, in order) once it lists any. */
  async legendClasses(): Promise<string[]> {
    const entries = this.page.getByTestId('class-legend').getByTestId('legend-class');
    await entries.first().waitFor();
    return entries.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-class') ?? ''),
    );
  }

  /** Ticks or unticks a class in the legend. */
  async toggleClass(name: string): Promise<void> {
    await this.page
      .getByTestId('class-legend')
      .getByRole('checkbox', { name, exact: true })
      .click();
  }

  /**
   * The classes a label-map layer ('gt' or 'pred') paints and how many pixels it painted, once it
   * painted; with `without`, once that class is gone and fewer than `paintedBelow` pixels remain.
   */
  async labelMap(
    layer: 'gt' | 'pred',
    until: { without?: string; paintedBelow?: number } = {},
  ): Promise<{ classes: string[]; painted: number }> {
    const handle = await this.page.waitForFunction(
      ({ layer: wanted, without, paintedBelow }) => {
        const mask = document.querySelector(
          `[data-testid="label-map-mask"][data-layer="${wanted}"][data-painted]`,
        );
        if (!mask) return null;
        const classes = (mask.getAttribute('data-classes') ?? '').split(',').filter(Boolean);
        const painted = Number(mask.getAttribute('data-painted'));
        if (without !== null && classes.includes(without)) return null;
        if (paintedBelow !== null && !(painted < paintedBelow)) return null;
        return { classes, painted };
      },
      { layer, without: until.without ?? null, paintedBelow: until.paintedBelow ?? null },
      { timeout: 30_000 },
    );
    return (await handle.jsonValue()) as { classes: string[]; painted: number };
  }

  /** Screen rectangles of the label chips on the image. */
  async labelChips(): Promise<{ left: number; top: number; right: number; bottom: number }[]> {
    await this.page.getByTestId('object-label').first().waitFor();
    return this.page.getByTestId('object-label').evaluateAll((chips) =>
      chips.map((chip) => {
        const r = chip.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
      }),
    );
  }
}
