// Screenshots of the datasets list, the overview, the Add Dataset modal, the SDK dialog and the
// activities popover, in a light and a dark theme, over the demo datasets.
import { afterAll, beforeAll, describe, test } from 'vitest';
import { ActivitiesPopover } from './pages/ActivitiesPopover';
import { DatasetOverview } from './pages/DatasetOverview';
import { DatasetsList } from './pages/DatasetsList';
import { SdkDialog } from './pages/SdkDialog';
import { ApiSession } from './support/api';
import { launchBrowser, newContext, screenshot, type ThemeId } from './support/browser';
import { ADMIN, signIn } from './support/journey';
import { LoupeServer } from './support/server';
import type { Dataset } from '@loupe/contracts';
import type { Browser } from 'playwright-core';

const server = new LoupeServer({ args: ['--demo'] });
let browser: Browser;
let datasets: Dataset[] = [];

beforeAll(async () => {
  await server.start();
  await server.setUp(ADMIN);
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  datasets = await session.waitForSettledDatasets(7);
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server.dispose();
});

describe.each(['lightBlue', 'darkBlue', 'darkRed'] as ThemeId[])('in %s', (theme) => {
  test('datasets pages', async () => {
    const context = await newContext(browser, {
      baseURL: server.url,
      theme,
      colorScheme: theme.startsWith('dark') ? 'dark' : 'light',
    });
    const page = await context.newPage();
    const shell = await signIn(page, ADMIN.email, ADMIN.password);
    const list = new DatasetsList(page);
    await list.goto();
    await list.expectCards(7);
    await page.waitForFunction(() =>
      Array.from(
        document.querySelectorAll<HTMLImageElement>('[data-testid="dataset-preview"]'),
      ).every((image) => image.complete),
    );
    await screenshot(page, `datasets-list-${theme}`);

    const dialog = await list.openAddDataset();
    await screenshot(page, `add-dataset-${theme}`);
    await dialog.getByRole('tab', { name: 'SDK' }).click();
    await dialog.getByTestId('add-dataset-snippet').waitFor();
    await screenshot(page, `add-dataset-sdk-${theme}`);
    await dialog.getByRole('button', { name: /Show SDK setup$/ }).click();
    const sdk = new SdkDialog(page);
    await sdk.dialog().getByTestId('sdk-configure-command').waitFor();
    await screenshot(page, `sdk-dialog-${theme}`);
    await sdk.close();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const activities = new ActivitiesPopover(page);
    await activities.open();
    await activities.showAll();
    await activities.rows().first().waitFor();
    await screenshot(page, `activities-${theme}`);
    await page.keyboard.press('Escape');
    await page.mouse.click(700, 600);

    const detection = datasets.find((dataset) => dataset.task_type === 'object_detection')!;
    await page.goto(`/datasets/${detection.id}/overview`);
    const overview = new DatasetOverview(page);
    await overview.expectShown(detection.name);
    await overview.expectPreviews(3);
    await screenshot(page, `dataset-overview-${theme}`);
    await page.getByRole('heading', { name: 'Settings' }).scrollIntoViewIfNeeded();
    await screenshot(page, `dataset-overview-settings-${theme}`);

    await page.goto('/models');
    await shell.expectPage('Models');
    await page.getByTestId('model-group').first().waitFor();
    await screenshot(page, `models-list-${theme}`);
    await page.getByRole('button', { name: 'Add Model' }).click();
    await page
      .getByRole('dialog', { name: 'Add Model' })
      .getByTestId('add-model-snippet')
      .waitFor();
    await screenshot(page, `add-model-${theme}`);
    await context.close();
  });
});
