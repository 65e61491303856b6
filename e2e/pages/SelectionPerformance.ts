// The explorer's performance sidebar under a model (docs/model-performance.md): what it covers
// (the selection, the filter, the subset or everything) and its numbers, read once it settled.
import type { Locator, Page } from 'playwright-core';

export interface SidebarNumbers {
  scope: string;
  items: number;
  itemsUsed: number;
  /** Metric id → the text shown ('83.3%', '5', '–'). */
  metrics: Record<string, string>;
}

export class SelectionPerformance {
  constructor(private readonly page: Page) {}

  sidebar(): Locator {
    return this.page.getByTestId('selection-performance');
  }

  /**
   * Waits until the sidebar covers `scope` ('Items matching the filter', '2 selected items') with
   * `items` items and is no longer showing an earlier answer; answers what it shows.
   */
  async expectScope(scope: string, items: number): Promise<SidebarNumbers> {
    const sidebar = this.sidebar();
    await sidebar
      .getByTestId('selection-performance-scope')
      .filter({ hasText: new RegExp(`^${scope}$`) })
      .waitFor();
    await sidebar
      .getByTestId('selection-num-items')
      .filter({ hasText: new RegExp(`^${items.toLocaleString('en-US')}$`) })
      .waitFor({ timeout: 30_000 });
    await sidebar.locator('[data-stale="false"]').waitFor();
    return sidebar.evaluate((node) => {
      const text = (testId: string) =>
        (node.querySelector(`[data-testid="${testId}"]`)?.textContent ?? '').trim();
      const metrics: Record<string, string> = {};
      for (const cell of Array.from(node.querySelectorAll('[data-testid^="selection-metric-"]'))) {
        const id = cell.getAttribute('data-testid')!.slice('selection-metric-'.length);
        metrics[id] = (cell.textContent ?? '').trim();
      }
      return {
        scope: text('selection-performance-scope'),
        items: Number(text('selection-num-items').replace(/\D/g, '')),
        itemsUsed: Number(text('selection-num-items-used').replace(/\D/g, '')),
        metrics,
      };
    });
  }
}
