// The signed-in frame fits the window on the datasets list, a dataset overview and Explore, in a
// light and a dark theme: no document scrollbar beside the page's own, the navigation down to the
// bottom edge; and Explore's toolbar stays on one line at 1440 and 1280 px with a sort, a colour
// and a selection active.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatasetOverview } from './pages/DatasetOverview';
import { DatasetsList } from './pages/DatasetsList';
import { ExplorePage } from './pages/ExplorePage';
import { SdkDialog } from './pages/SdkDialog';
import { ApiSession } from './support/api';
import {
  launchBrowser,
  newContext,
  screenshot,
  screenshotFailures,
  type ThemeId,
} from './support/browser';
import { ADMIN, signIn } from './support/journey';
import { LoupeServer } from './support/server';
import type { Dataset } from '@loupe/contracts';
import type { Browser, Page } from 'playwright-core';

const DEMO_DATASETS = 7;
/** One row of the toolbar's 32 px controls; a wrapped toolbar is at least twice that. */
const ONE_ROW = 40;

const server = new LoupeServer({ args: ['--demo'] });
let browser: Browser;
let datasets: Dataset[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  await server.start();
  await server.setUp(ADMIN);
  const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
  await session.license();
  datasets = await session.waitForSettledDatasets(DEMO_DATASETS);
  browser = await launchBrowser();
}, 300_000);
screenshotFailures(() => pages);
afterAll(async () => {
  await browser?.close();
  await server.dispose();
});

describe.each(['lightBlue', 'darkBlue'] as ThemeId[])('in %s', (theme) => {
  test(
    'the frame fits the window; the explore toolbar stays on one line',
    { timeout: 300_000 },
    async () => {
      const context = await newContext(browser, {
        baseURL: server.url,
        theme,
        colorScheme: theme.startsWith('dark') ? 'dark' : 'light',
      });
      const page = await context.newPage();
      pages.push(page);
      const shell = await signIn(page, ADMIN.email, ADMIN.password);

      // Seven dataset cards are taller than 900 px: the page scrolls inside the frame.
      const list = new DatasetsList(page);
      await list.goto();
      await list.expectCards(DEMO_DATASETS);
      await shell.expectFitsViewport('datasets list');

      const detection = datasets.find((dataset) => dataset.name === 'Demo · Shape detection')!;
      await page.goto(`/datasets/${detection.id}/overview`);
      const overview = new DatasetOverview(page);
      await overview.expectShown(detection.name);
      await shell.expectFitsViewport('dataset overview');
      // The Version History reads as the operation, then the count: never '… items uploaded items'.
      const record = page.getByTestId('history-record').first();
      await record.getByText('Uploaded items', { exact: true }).waitFor();
      expect(await record.textContent()).not.toMatch(/items uploaded items/);

      const explore = new ExplorePage(page);
      await explore.open(`/datasets/${detection.id}/explore`);
      await shell.expectFitsViewport('explore');
      await explore.sortBy('Index');
      await explore.closePopovers();
      await explore.colorBy('Split');
      await explore.cards().nth(0).click();
      await explore
        .cards()
        .nth(3)
        .click({ modifiers: ['Shift'] });
      await page.getByTestId('selection-counter').filter({ hasText: '4 selected' }).waitFor();
      const toolbar = page.getByTestId('explore-toolbar');
      expect((await toolbar.boundingBox())!.height, '1440 px: one line').toBeLessThanOrEqual(
        ONE_ROW,
      );
      await shell.expectFitsViewport('explore with sort, colour and selection');
      await screenshot(page, `explore-toolbar-active-${theme}`);

      // Below 1300 px the navigation starts collapsed; the toolbar keeps to one line.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.reload();
      await explore.cards().first().waitFor();
      await explore.cards().nth(0).click();
      await explore
        .cards()
        .nth(2)
        .click({ modifiers: ['Shift'] });
      await page.getByTestId('selection-counter').filter({ hasText: '3 selected' }).waitFor();
      await page.getByTestId('color-legend').waitFor();
      expect((await toolbar.boundingBox())!.height, '1280 px: one line').toBeLessThanOrEqual(
        ONE_ROW,
      );
      await shell.expectFitsViewport('explore at 1280 px');
      await screenshot(page, `explore-toolbar-active-1280-${theme}`);

      // The SDK dialog's upload step and the documentation it opens.
      await page.setViewportSize({ width: 1440, height: 900 });
      await list.goto();
      await shell.nav.getByRole('button', { name: 'Help' }).click();
      await shell.gettingStarted().getByText('Set up SDK', { exact: true }).click();
      const sdk = new SdkDialog(page);
      const snippet = sdk.dialog().getByTestId('sdk-upload-snippet');
      await snippet.scrollIntoViewIfNeeded();
      expect(await snippet.textContent()).toContain('"pets", "classification", class_names=');
      await screenshot(page, `sdk-dialog-upload-${theme}`);
      await sdk
        .dialog()
        .getByRole('button', { name: /SDK documentation/ })
        .first()
        .click();
      await page
        .getByTestId('sdk-docs')
        .getByRole('heading', { name: 'Errors and retries' })
        .waitFor();
      await screenshot(page, `sdk-docs-${theme}`);
      await context.close();
    },
  );
});
