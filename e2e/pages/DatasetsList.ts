// The datasets list: cards, search, task filter, the Add Dataset modal.
import type { Locator, Page } from 'playwright-core';
import { waitForTestEvent } from '../support/browser';

export class DatasetsList {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/datasets');
    await waitForTestEvent(this.page, 'datasets:rendered');
  }

  cards(): Locator {
    return this.page.getByTestId('dataset-card');
  }

  card(name: string): Locator {
    return this.page.getByRole('link', { name, exact: true });
  }

  /** Waits until exactly `count` cards are shown. */
  async expectCards(count: number): Promise<void> {
    await this.page.waitForFunction(
      (wanted) => document.querySelectorAll('[data-testid="dataset-card"]').length === wanted,
      count,
    );
  }

  async search(text: string): Promise<void> {
    await this.page.getByRole('textbox', { name: 'Search datasets' }).fill(text);
  }

  async filterTask(label: string): Promise<void> {
    await this.page.getByRole('combobox', { name: 'Task type' }).click();
    await this.page.locator('.ant-select-item-option').filter({ hasText: label }).first().click();
  }

  async openAddDataset(): Promise<Locator> {
    await this.page.getByRole('button', { name: 'Add Dataset' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Add Dataset' });
    await dialog.waitFor();
    return dialog;
  }
}
