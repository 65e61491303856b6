// The Explore page: the grid announces each settled render ('grid:rendered' with the cards it
// drew and the result's total); actions wait for the next announcement instead of sleeping.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface GridRender {
  cards: number;
  total: number;
}

declare global {
  interface Window {
    __loupeTestEvents?: Record<string, unknown>[];
  }
}

export class ExplorePage {
  constructor(private readonly page: Page) {}

  grid(): Locator {
    return this.page.getByTestId('explore-grid');
  }

  cards(): Locator {
    return this.page.getByTestId('item-card');
  }

  /** Runs `action` and waits for the grid's next settled render. */
  async afterGridRender(action: () => Promise<unknown>): Promise<GridRender> {
    await this.page.evaluate(() => {
      window.__loupeTestEvents = (window.__loupeTestEvents ?? []).filter(
        (event) => event.type !== 'grid:rendered',
      );
    });
    await action();
    const handle = await this.page.waitForFunction(
      () => window.__loupeTestEvents?.findLast((event) => event.type === 'grid:rendered') ?? null,
      undefined,
      { timeout: 60_000 },
    );
    const event = (await handle.jsonValue()) as unknown as GridRender;
    return { cards: event.cards, total: event.total };
  }

  async open(path: string): Promise<GridRender> {
    return this.afterGridRender(() => this.page.goto(path));
  }

  /** The grid drew cards and its element says how many. */
  async expectRendered(render: GridRender, total: number): Promise<void> {
    expect(render.total).toBe(total);
    expect(render.cards).toBeGreaterThan(0);
    expect(render.cards).toBeLessThanOrEqual(total);
    expect(Number(await this.grid().getAttribute('data-rendered-cards'))).toBe(render.cards);
    await this.page.getByTestId('items-count').waitFor();
  }

  /** When the grid first drew cards, in ms since navigation start (the first-paint mark). */
  async firstPaintMs(): Promise<number | null> {
    return this.page.evaluate(
      () => performance.getEntriesByName('loupe:grid-first-paint')[0]?.startTime ?? null,
    );
  }

  async firstCardIds(count: number): Promise<string[]> {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      ids.push((await this.cards().nth(i).getAttribute('data-item-id')) ?? '');
    }
    return ids;
  }

  private async choose(combobox: Locator, option: string): Promise<void> {
    await combobox.click();
    await combobox.fill(option);
    await this.page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${option}$`) })
      .first()
      .click();
  }

  /** A numeric range filter on one property, applied from the filter popover. */
  async filterNumeric(property: string, from: number, to: number): Promise<GridRender> {
    await this.page.getByRole('button', { name: /Filter$/ }).click();
    const popover = this.page.getByTestId('filter-popover');
    await this.choose(popover.getByRole('combobox', { name: 'Search properties' }), property);
    const fromInput = popover.getByRole('spinbutton', { name: `${property} From` });
    const toInput = popover.getByRole('spinbutton', { name: `${property} To` });
    await fromInput.fill(String(from));
    await toInput.fill(String(to));
    return this.afterGridRender(() => popover.getByRole('button', { name: 'Apply' }).click());
  }

  /** Filters by a Version history record, chosen by its operation's words ('changed sample label'). */
  async filterByHistory(operation: string): Promise<GridRender> {
    await this.page.getByRole('button', { name: /Filter$/ }).click();
    const popover = this.page.getByTestId('filter-popover');
    await popover.getByRole('combobox', { name: 'History record' }).click();
    await this.page
      .locator('.ant-select-dropdown:visible')
      .getByTestId('history-option')
      .filter({ hasText: operation })
      .first()
      .click();
    return this.afterGridRender(() => popover.getByRole('button', { name: 'Apply' }).click());
  }

  async sortBy(property: string): Promise<GridRender> {
    await this.page.getByRole('button', { name: /Sort/ }).first().click();
    const popover = this.page.getByTestId('sort-popover');
    return this.afterGridRender(() =>
      this.choose(popover.getByRole('combobox', { name: 'Sort by' }), property),
    );
  }

  /** Sets the direction of the first sort in the sort editor. */
  async sortDirection(direction: 'Ascending' | 'Descending'): Promise<GridRender> {
    const popover = this.page.getByTestId('sort-popover');
    const select = popover.getByRole('combobox', { name: 'Sort direction' }).first();
    return this.afterGridRender(async () => {
      await select.click();
      await this.page
        .locator('.ant-select-dropdown:visible .ant-select-item-option')
        .filter({ hasText: direction })
        .click();
    });
  }

  async closePopovers(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.page.getByRole('heading', { name: 'Explore' }).click();
  }

  async colorBy(property: string): Promise<void> {
    await this.choose(this.page.getByRole('combobox', { name: 'Color by' }), property);
    await this.page.getByTestId('color-legend').waitFor();
  }

  /** The grid legend's swatch colour (computed CSS) of each category, once `values` are listed. */
  async legendColors(values: readonly string[]): Promise<Map<string, string>> {
    return legendColors(this.page, 'color-legend', values);
  }

  async switchLevel(label: 'Sample' | 'Object'): Promise<GridRender> {
    return this.afterGridRender(() =>
      this.page.getByLabel('Data level').getByText(label, { exact: true }).click(),
    );
  }
}

/**
 * The swatch colour (computed CSS, so both legends speak rgb()) of each category row of the
 * legend `testId`, waiting until every one of `values` has a row. The grid's and the map's legends
 * mark rows 'legend-category' with data-value and their swatch 'legend-swatch'.
 */
export async function legendColors(
  page: Page,
  testId: string,
  values: readonly string[],
): Promise<Map<string, string>> {
  const handle = await page.waitForFunction(
    ({ testId, values }) => {
      const rows = document.querySelectorAll(
        `[data-testid="${testId}"] [data-testid="legend-category"]`,
      );
      const colors: [string, string][] = [];
      for (const row of Array.from(rows)) {
        const swatch = row.querySelector('[data-testid="legend-swatch"]');
        const value = row.getAttribute('data-value');
        if (swatch && value !== null)
          colors.push([value, getComputedStyle(swatch).backgroundColor]);
      }
      return values.every((value) => colors.some(([v]) => v === value)) ? colors : null;
    },
    { testId, values },
    { timeout: 60_000 },
  );
  return new Map((await handle.jsonValue()) as [string, string][]);
}
