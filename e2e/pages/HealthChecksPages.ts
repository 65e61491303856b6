// The health-check pages (docs/health-checks.md): the list of checks in groups with their status
// tags, and a check's page with its failed items, the action card (selection groups and one
// button), the pending changes it queued, and the passed view.
import type { Locator, Page } from 'playwright-core';

export class HealthChecksList {
  constructor(private readonly page: Page) {}

  async open(datasetId: string): Promise<void> {
    await this.page.goto(`/datasets/${datasetId}/checks`);
    await this.page.getByTestId('checks-list').waitFor();
  }

  group(name: string): Locator {
    return this.page.locator(`[data-testid="check-group"][data-group="${name}"]`);
  }

  row(checkId: string): Locator {
    return this.page.locator(`[data-testid="check-row"][data-check-id="${checkId}"]`);
  }

  /** The group names in the page's order. */
  groups(): Promise<string[]> {
    return this.page
      .getByTestId('check-group')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-group') ?? ''));
  }

  async openCheck(checkId: string, name: string): Promise<CheckPage> {
    await this.row(checkId).getByRole('link', { name }).click();
    const check = new CheckPage(this.page);
    await check.loaded();
    return check;
  }
}

export class CheckPage {
  constructor(private readonly page: Page) {}

  async loaded(): Promise<void> {
    await this.page
      .locator(
        '[data-testid="action-view"], [data-testid="passed-view"], [data-testid="pending-view"], [data-testid="text-view"]',
      )
      .first()
      .waitFor({ timeout: 60_000 });
  }

  summary(): Locator {
    return this.page.getByTestId('evidence-summary');
  }

  items(): Locator {
    return this.page.getByTestId('check-items').getByTestId('check-item');
  }

  /** The item ids shown as failed, and the selection group each is in. */
  itemGroups(): Promise<Record<string, string>> {
    return this.items().evaluateAll((nodes) =>
      Object.fromEntries(
        nodes.map((node) => [
          node.getAttribute('data-item-id') ?? '',
          node.getAttribute('data-group') ?? '',
        ]),
      ),
    );
  }

  /** Makes a selection group (by its title, e.g. 'Ignore') the one a click on an item fills. */
  async chooseGroup(title: string): Promise<void> {
    await this.page
      .getByTestId('action-card')
      .getByRole('radio', { name: new RegExp(`^${title}`) })
      .check();
  }

  async toggleItem(itemId: string): Promise<void> {
    await this.page.locator(`[data-testid="check-item"][data-item-id="${itemId}"]`).click();
  }

  applyButton(): Locator {
    return this.page.getByTestId('action-apply');
  }

  /** The action card's button, then the delete confirmation when it asks. */
  async applyCard(confirmDelete: boolean): Promise<void> {
    await this.applyButton().click();
    if (!confirmDelete) return;
    const dialog = this.page.locator('.ant-modal-confirm');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** 'Apply changes' in the page's pending changes; waits for the outcome. */
  async applyPending(deleted: number): Promise<void> {
    const box = this.page.getByTestId('check-pending');
    await box.getByRole('button', { name: 'Apply changes' }).click();
    await this.page
      .getByTestId('apply-result')
      .filter({ hasText: `Changes applied successfully. ${deleted} items deleted` })
      .first()
      .waitFor();
  }

  passedView(): Locator {
    return this.page.getByTestId('passed-view');
  }

  /** Waits (the page polls while the check computes) until it shows the passed view. */
  async untilPassed(): Promise<void> {
    await this.passedView().waitFor({ timeout: 120_000 });
  }
}
