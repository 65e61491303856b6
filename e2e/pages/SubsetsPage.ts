// A dataset's subsets table and a subset's page (docs/curation.md): the table announces
// 'subsets:rendered', a subset page 'subset:rendered' once its grid drew; Export offers coco and
// csv, each a download of a zip.
import type { Download, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForTestEvent } from '../support/browser';

export class SubsetsPage {
  constructor(private readonly page: Page) {}

  /** Opens the table of a dataset with `total` subsets and waits until it drew them. */
  async open(datasetId: string, total: number): Promise<void> {
    await this.page.goto(`/datasets/${datasetId}/subsets`);
    await waitForTestEvent(this.page, 'subsets:rendered', { total });
  }

  row(name: string): Locator {
    return this.page
      .getByTestId('subsets-table')
      .getByRole('row')
      .filter({ has: this.page.getByTestId('subset-link').filter({ hasText: name }) });
  }

  /** The subset's row lists its data level and its number of items. */
  async expectRow(name: string, level: string, items: number): Promise<void> {
    const cells = await this.row(name).getByRole('cell').allTextContents();
    expect(cells).toContain(level);
    expect(cells).toContain(items.toLocaleString('en-US'));
  }

  /** Opens a subset from the table; waits until its page drew its grid; answers its id. */
  async openSubset(name: string): Promise<string> {
    await this.row(name).getByTestId('subset-link').click();
    await this.page.waitForURL(/\/subsets\/[^/?]+$/);
    const subsetId = decodeURIComponent(new URL(this.page.url()).pathname.split('/').at(-1)!);
    await waitForTestEvent(this.page, 'subset:rendered', { subsetId });
    return subsetId;
  }

  /** The subset page's title and item count. */
  async expectSubset(name: string, items: number): Promise<void> {
    await this.page.getByRole('heading', { name, level: 4 }).waitFor();
    const count = this.page.getByTestId('subset-count');
    await count.filter({ hasText: `${items} ${items === 1 ? 'item' : 'items'}` }).waitFor();
  }

  /** Export → coco or csv: the browser's download of the zip. */
  async export(format: 'coco' | 'csv'): Promise<Download> {
    await this.page.getByRole('button', { name: /Export/ }).click();
    const link = this.page.getByTestId(`export-${format}`);
    const [download] = await Promise.all([this.page.waitForEvent('download'), link.click()]);
    return download;
  }
}
