// The Model performance page (docs/model-performance.md): the Statistics table read cell by cell,
// the Metadata Performance chart's field chooser, and a click on one of its bars. The bars are
// drawn on a canvas (ECharts), so a bar is found the way a person finds it: by moving the mouse
// along the chart until the pointer turns into a hand over a bar whose tooltip names the bin.
import type { Locator, Page } from 'playwright-core';
import { waitForTestEvent } from '../support/browser';

/** Where the bars stand, in px above the bottom of the chart (below: the category axis). */
const SCAN_ROWS = [40, 70, 110];
const SCAN_STEP = 4;

export class PerformancePage {
  constructor(private readonly page: Page) {}

  /** Opens the page of a model and waits until it drew its frame with the model named. */
  async open(datasetId: string, predictionSetId: string, modelName: string): Promise<void> {
    await this.page.goto(
      `/models/datasets/${datasetId}/predictions/${predictionSetId}/performance`,
    );
    await this.expectShown(modelName);
  }

  async expectShown(modelName: string): Promise<void> {
    await waitForTestEvent(this.page, 'page:rendered', { page: 'model-performance' });
    await this.page.locator('.ant-breadcrumb').getByText(modelName).first().waitFor();
  }

  section(name: string): Locator {
    return this.page.getByRole('region', { name });
  }

  statisticsTable(): Locator {
    return this.section('Statistics').getByTestId('statistics-table');
  }

  /** Waits until the report is computed (the page polls) and its table is drawn. */
  async waitForStatistics(timeout = 120_000): Promise<void> {
    // (With a horizontal scroll, antd's first body row is an invisible measuring row.)
    await this.statisticsTable().locator('tbody tr.ant-table-row').first().waitFor({ timeout });
  }

  /** The text of the Statistics cell of a split row ('All', 'train') and a metric column title. */
  async statistic(split: string, column: string): Promise<string> {
    const table = await this.statisticsTable().elementHandle();
    if (!table) throw new Error('No statistics table');
    const text = await table.evaluate(
      (node, { split, column }) => {
        const titles = Array.from(node.querySelectorAll('thead th')).map((th) =>
          (th.textContent ?? '').trim(),
        );
        const index = titles.indexOf(column);
        const row = Array.from(node.querySelectorAll('tbody tr.ant-table-row')).find(
          (tr) => (tr.querySelector('td')?.textContent ?? '').trim() === split,
        );
        const cell = index >= 0 ? row?.querySelectorAll('td')[index] : undefined;
        return cell ? (cell.textContent ?? '').trim() : null;
      },
      { split, column },
    );
    if (text === null) throw new Error(`No statistics cell for ${split} × ${column}`);
    return text;
  }

  metadataSection(): Locator {
    return this.section('Metadata Performance');
  }

  metadataChart(): Locator {
    return this.metadataSection().getByRole('img', { name: 'Metadata Performance' });
  }

  /** Chooses the metadata field the chart bins by, and waits for the chart. */
  async chooseMetadataField(label: string): Promise<void> {
    const select = this.metadataSection().getByRole('combobox', { name: 'Metadata field' });
    await select.click();
    await select.fill(label);
    await this.page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .first()
      .click();
    // The chosen field shows in the select (antd's root around the combobox).
    await select
      .locator('xpath=ancestor::div[contains(concat(" ", @class, " "), " ant-select ")][1]')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .waitFor();
    await this.metadataChart().locator('canvas').first().waitFor();
  }

  /** The chart's tooltip names the bin under the mouse: '<b>rain</b> · 4 items …'. */
  private async tooltipNames(bin: string, timeout: number): Promise<boolean> {
    const chart = await this.metadataChart().elementHandle();
    return this.page
      .waitForFunction(
        ({ chart, bin }) =>
          Array.from(chart!.querySelectorAll('div')).some(
            (div) =>
              div.innerHTML.includes(`<b>${bin}</b>`) &&
              getComputedStyle(div).display !== 'none' &&
              getComputedStyle(div).visibility !== 'hidden',
          ),
        { chart, bin },
        { timeout },
      )
      .then(
        () => true,
        () => false,
      );
  }

  /** The hand cursor ECharts sets on its canvas's root while the mouse is over a bar. */
  private async overBar(canvas: Locator): Promise<boolean> {
    return canvas.evaluate((node) => node.parentElement?.style.cursor === 'pointer');
  }

  /**
   * Clicks the bar of a bin (the first chosen metric's): scans the chart for bars, hovers each
   * found until the tooltip names `bin`, then clicks it.
   */
  async clickMetadataBar(bin: string): Promise<void> {
    const canvas = this.metadataChart().locator('canvas').first();
    const box = await canvas.boundingBox();
    if (!box) throw new Error('The metadata chart is not laid out');
    for (const above of SCAN_ROWS) {
      const y = box.y + box.height - above;
      // Runs of x where the pointer is over a bar.
      const runs: [number, number][] = [];
      for (let x = box.x + 2; x < box.x + box.width - 2; x += SCAN_STEP) {
        await this.page.mouse.move(x, y);
        if (!(await this.overBar(canvas))) continue;
        const last = runs.at(-1);
        if (last && x - last[1] <= SCAN_STEP) last[1] = x;
        else runs.push([x, x]);
      }
      for (const [from, to] of runs) {
        const x = (from + to) / 2;
        await this.page.mouse.move(x, y);
        if (await this.tooltipNames(bin, 2000)) {
          await this.page.mouse.click(x, y);
          return;
        }
      }
    }
    throw new Error(`No bar of the metadata chart is named ${bin}`);
  }
}
