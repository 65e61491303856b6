// The dataset overview: header, previews, statistics, Version History and Settings.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForTestEvent } from '../support/browser';

export class DatasetOverview {
  constructor(private readonly page: Page) {}

  async expectShown(name: string): Promise<void> {
    await this.page.getByTestId('dataset-name').filter({ hasText: name }).waitFor();
    await waitForTestEvent(this.page, 'page:rendered', { page: 'dataset-overview' });
  }

  previews(): Locator {
    return this.page.getByTestId('preview-row').getByTestId('dataset-preview');
  }

  /** Waits until the preview row shows `count` loaded images. */
  async expectPreviews(count: number): Promise<void> {
    await this.page.waitForFunction((wanted) => {
      const images = Array.from(
        document.querySelectorAll<HTMLImageElement>(
          '[data-testid="preview-row"] [data-testid="dataset-preview"]',
        ),
      );
      return (
        images.length === wanted &&
        images.every((image) => image.complete && image.naturalWidth > 0)
      );
    }, count);
  }

  async expectStatistic(title: string, value: number): Promise<void> {
    await this.page.getByLabel(`${title}: ${value}`, { exact: true }).waitFor();
  }

  async expectNoStatistic(title: string): Promise<void> {
    expect(await this.page.getByLabel(new RegExp(`^${title}: `)).count()).toBe(0);
  }

  /** Version History records whose heading is `operation` ('Changed sample label'). */
  historyRecords(operation: string): Locator {
    return this.page
      .getByTestId('history-record')
      .filter({ has: this.page.getByText(operation, { exact: true }) });
  }

  /** Waits for a record of `operation` on `items` items by `user`; answers the record. */
  async expectHistoryRecord(operation: string, items: number, user: string): Promise<Locator> {
    const record = this.historyRecords(operation)
      .filter({ hasText: `${items} ${items === 1 ? 'item' : 'items'} · by ${user}` })
      .first();
    await record.waitFor();
    return record;
  }

  /** Restore on a delete record, confirmed; waits for 'N item(s) restored.'. */
  async restore(record: Locator, items: number): Promise<void> {
    await record.getByRole('button', { name: /Restore$/ }).click();
    const noun = items === 1 ? 'item' : 'items';
    const dialog = this.page.getByRole('dialog').filter({ hasText: `Restore ${items} ${noun}?` });
    await dialog.getByRole('button', { name: 'Restore', exact: true }).click();
    await this.page.getByText(`${items} ${noun} restored.`, { exact: true }).waitFor();
  }

  thumbnailsSwitch(): Locator {
    return this.page.getByRole('switch', { name: 'Thumbnails' });
  }

  async disableThumbnails(): Promise<void> {
    await this.thumbnailsSwitch().click();
    const confirm = this.page.getByRole('dialog').filter({ hasText: 'Disable thumbnails?' });
    await confirm.getByRole('button', { name: 'Disable' }).click();
    await confirm.waitFor({ state: 'hidden' });
  }

  async enableThumbnails(): Promise<void> {
    await this.thumbnailsSwitch().click();
    await this.page.waitForFunction(
      () =>
        document
          .querySelector('[role="switch"][aria-label="Thumbnails"]')
          ?.getAttribute('aria-checked') === 'true',
    );
  }

  async deleteDataset(name: string): Promise<void> {
    await this.page.getByRole('button', { name: /Delete dataset$/ }).click();
    const dialog = this.page.getByRole('dialog', { name: `Delete dataset "${name}"?` });
    await dialog.getByText('This action cannot be undone.').waitFor();
    const confirm = dialog.getByRole('button', { name: 'Delete', exact: true });
    const input = dialog.getByRole('textbox', { name: 'Dataset name' });
    await input.fill(name.slice(0, -1));
    expect(await confirm.isDisabled()).toBe(true);
    await input.fill(name);
    await confirm.click();
  }
}
