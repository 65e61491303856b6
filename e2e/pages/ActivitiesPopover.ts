// The header bell and its activities popover.
import type { Locator, Page } from 'playwright-core';

export class ActivitiesPopover {
  constructor(private readonly page: Page) {}

  bell(): Locator {
    return this.page.getByRole('button', { name: /^Activities/ }).first();
  }

  popover(): Locator {
    return this.page.getByTestId('activities-popover');
  }

  async open(): Promise<Locator> {
    if (!(await this.popover().isVisible())) await this.bell().click();
    await this.popover().waitFor();
    return this.popover();
  }

  async showAll(): Promise<void> {
    await this.popover().getByText('All activities', { exact: true }).click();
  }

  rows(): Locator {
    return this.popover().getByTestId('activity-row');
  }

  /** Waits until every listed job of `datasetName` has finished and at least `count` succeeded. */
  async waitForSuccess(datasetName: string, count = 1): Promise<void> {
    await this.page.waitForFunction(
      ({ name, wanted }) => {
        const rows = Array.from(document.querySelectorAll('[data-testid="activity-row"]')).filter(
          (row) => row.textContent?.includes(name),
        );
        return (
          rows.length >= wanted &&
          rows.every((row) => row.getAttribute('data-status') === 'SUCCESS')
        );
      },
      { name: datasetName, wanted: count },
      { timeout: 90_000 },
    );
  }
}
