// The 'Item Details' viewer over the explorer: every shown item dispatches `loupe:viewer-item`
// and sets `data-item-id` on the body, so steps wait for that instead of sleeping.
import type { Locator, Page } from 'playwright-core';

declare global {
  interface Window {
    __loupeViewerItems?: { id: string; index: number }[];
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

  /** Escape closes the viewer; waits until the dialog is gone. */
  async closeWithEscape(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.body().waitFor({ state: 'detached' });
  }
}
