// A screenshot of every shell page in a light and a dark theme (and the other three themes on
// the busiest pages), under test-results/screenshots/, for people to look at.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, test } from 'vitest';
import { api } from '@loupe/contracts';
import { LoginPage } from './pages/LoginPage';
import { PerformancePage } from './pages/PerformancePage';
import { SetupWizard } from './pages/SetupWizard';
import { Shell } from './pages/Shell';
import { UsersSettings } from './pages/UsersSettings';
import {
  launchBrowser,
  newContext,
  screenshot,
  screenshotFailures,
  waitForTestEvent,
  type ThemeId,
} from './support/browser';
import { ApiSession } from './support/api';
import { ADMIN, signIn } from './support/journey';
import {
  streetClassification,
  streetDetection,
  uploadWithPython,
  type DatasetSpec,
  type UploadedDataset,
} from './support/performanceData';
import { LoupeServer } from './support/server';

const THEMES_SHOT: ThemeId[] = ['lightBlue', 'darkBlue'];
let browser: Browser;
const pages: Page[] = [];

beforeAll(async () => {
  browser = await launchBrowser();
});
screenshotFailures(() => pages);
afterAll(async () => {
  await browser?.close();
});

async function open(server: LoupeServer, theme: ThemeId): Promise<Page> {
  const page = await (await newContext(browser, { baseURL: server.url, theme })).newPage();
  pages.push(page);
  return page;
}

describe.each(THEMES_SHOT)('the setup wizard in %s', (theme) => {
  const server = new LoupeServer();
  beforeAll(() => server.start());
  afterAll(() => server.dispose());

  test('every step', async () => {
    const page = await open(server, theme);
    const wizard = new SetupWizard(page);
    await page.goto('/');
    await wizard.expectIntro();
    await screenshot(page, `setup-1-intro-${theme}`);
    await wizard.start();
    await screenshot(page, `setup-2-company-${theme}`);
    await wizard.submitCompany('Acme Inc.');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Name is required.').waitFor();
    await screenshot(page, `setup-3-user-errors-${theme}`);
    await wizard.submitUser(ADMIN);
    await wizard.expectComplete();
    await screenshot(page, `setup-4-final-${theme}`);
    await page.context().close();
  });
});

describe('a set-up instance', () => {
  const server = new LoupeServer({ environment: 'development' });
  let resetLink = '';

  beforeAll(async () => {
    await server.start();
    await server.setUp(ADMIN);
    // A member and a license, so the pages show real content.
    const page = await open(server, 'lightBlue');
    await signIn(page, ADMIN.email, ADMIN.password);
    const users = new UsersSettings(page);
    await users.goto();
    resetLink = await users.addUser({ name: 'Ben Member', email: 'ben@acme.test' });
    await users.addUser({ name: 'Ana Engineer', email: 'ana@acme.test', role: 'Admin' });
    await page.goto('/settings/license');
    await page.getByLabel('License key').fill(
      server.license.issue({
        license_id: 'lic-shots',
        company_name: 'Acme Inc.',
        expiration_ts: Math.floor(Date.now() / 1000) + 180 * 24 * 3600,
      }),
    );
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.getByText('This instance is licensed to', { exact: false }).waitFor();
    await page.context().close();
  });
  afterAll(() => server.dispose());

  test.each(['lightRed', 'lightBlue', 'darkRed', 'darkGray', 'darkBlue'] as ThemeId[])(
    'signed-out pages in %s',
    async (theme) => {
      const page = await open(server, theme);
      await page.goto('/login');
      await new LoginPage(page).expectShown();
      await screenshot(page, `login-${theme}`);
      if (!THEMES_SHOT.includes(theme)) return page.context().close();
      await new LoginPage(page).login(ADMIN.email, 'wrong-password');
      await new LoginPage(page).expectIncorrectCredentials();
      await screenshot(page, `login-error-${theme}`);
      await page.goto('/resetPassword');
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await screenshot(page, `reset-password-no-token-${theme}`);
      await page.goto(new URL(resetLink).pathname);
      await page.getByRole('heading', { name: 'Set a new password' }).waitFor();
      await screenshot(page, `reset-password-${theme}`);
      await page.goto('/no/such/page');
      await page.getByText('Page not found').waitFor();
      await screenshot(page, `not-found-${theme}`);
      await page.context().close();
    },
  );

  test.each(['lightRed', 'lightBlue', 'darkRed', 'darkGray', 'darkBlue'] as ThemeId[])(
    'signed-in pages in %s',
    async (theme) => {
      const page = await open(server, theme);
      await page.goto('/login');
      await new LoginPage(page).login(ADMIN.email, ADMIN.password);
      await page.waitForURL('**/datasets');
      const shell = new Shell(page);
      await shell.gettingStarted().waitFor();
      await screenshot(page, `getting-started-${theme}`);
      await shell.closeGettingStarted();
      await page.goto('/settings/users');
      await page.getByRole('row').filter({ hasText: 'Ben Member' }).waitFor();
      await screenshot(page, `settings-users-${theme}`);
      if (!THEMES_SHOT.includes(theme)) return page.context().close();

      await page.goto('/datasets');
      await shell.expectPage('Datasets');
      await screenshot(page, `datasets-${theme}`);
      await page.goto('/models');
      await shell.expectPage('Models');
      await screenshot(page, `models-${theme}`);
      // Explore is a real page now; Metadata is still a placeholder.
      await page.goto('/datasets/demo/metadata');
      await shell.expectPage('Metadata');
      await screenshot(page, `dataset-placeholder-${theme}`);

      await page.goto('/settings/users');
      await page.getByRole('row').filter({ hasText: 'Ben Member' }).waitFor();
      await page.getByRole('button', { name: 'Add user' }).click();
      await page
        .getByRole('dialog', { name: 'Add user' })
        .getByRole('button', { name: 'Add user' })
        .click();
      await page.getByText('Name is required.').waitFor();
      await screenshot(page, `settings-users-add-${theme}`);
      await page
        .getByRole('dialog', { name: 'Add user' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await page.getByRole('button', { name: 'Edit Ana Engineer' }).click();
      await page.getByRole('dialog', { name: 'Edit user' }).waitFor();
      await screenshot(page, `settings-users-edit-${theme}`);
      await page
        .getByRole('dialog', { name: 'Edit user' })
        .getByRole('button', { name: 'Cancel' })
        .click();
      await page.getByRole('button', { name: 'Reset password link Ben Member' }).click();
      await page.getByRole('dialog', { name: 'Reset password link' }).waitFor();
      await screenshot(page, `settings-users-reset-link-${theme}`);
      await page
        .getByRole('dialog', { name: 'Reset password link' })
        .getByRole('button', { name: 'Done' })
        .click();

      for (const [path, title] of [
        ['/settings/api_keys', 'API Keys'],
        ['/settings/license', 'License'],
        ['/settings/integrations', 'Integrations'],
        ['/settings/support', 'Support'],
        ['/settings/appearance', 'Appearance'],
      ] as const) {
        await page.goto(path);
        await shell.expectPage(title);
        await waitForTestEvent(page, 'page:rendered');
        await screenshot(page, `settings-${path.split('/')[2]}-${theme}`);
      }

      await page.goto('/datasets');
      await shell.expectPage('Datasets');
      await shell.openProfileMenu();
      await screenshot(page, `profile-menu-${theme}`);
      await shell.closeProfileMenu();
      const dialog = await shell.changePassword('', 'short', 'other');
      await dialog.getByText('Current password is required.').waitFor();
      await screenshot(page, `change-password-${theme}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();

      // Collapsed navigation, then revealed by hovering the left edge.
      await page.keyboard.press('Control+/');
      await page.locator('[data-nav-state="collapsed"]').waitFor({ state: 'attached' });
      await screenshot(page, `nav-collapsed-${theme}`);
      await page.mouse.move(4, 400);
      await page.locator('[data-nav-revealed="true"]').waitFor({ state: 'attached' });
      await page.mouse.move(100, 400);
      await screenshot(page, `nav-revealed-${theme}`);
      await page.keyboard.press('Control+/');
      await page.locator('[data-nav-state="open"]').waitFor({ state: 'attached' });
      await page.context().close();
    },
  );
});

describe('the model pages', () => {
  // A detection and a classification dataset (splits train and test, `weather` and `brightness`
  // metadata, two models each) uploaded from Python, and two subsets shown in performance.
  const server = new LoupeServer();
  const uploaded = new Map<string, { spec: DatasetSpec; data: UploadedDataset }>();

  beforeAll(async () => {
    await server.start();
    await server.setUp(ADMIN);
    const session = await ApiSession.signIn(server, ADMIN.email, ADMIN.password);
    await session.license();
    for (const spec of [streetDetection(), streetClassification()]) {
      const data = await uploadWithPython(server, session, spec);
      uploaded.set(spec.task_type, { spec, data });
      const rainy = spec.samples.filter((sample) => sample.metadata.weather === 'rain');
      const sunnyTest = spec.samples.filter(
        (sample) => sample.metadata.weather === 'sunny' && sample.split === 'test',
      );
      for (const [name, items] of [
        ['Rainy streets', rainy],
        ['Sunny test frames', sunnyTest],
      ] as const) {
        await session.call(api.subsets.create, {
          params: { id: data.datasetId },
          body: {
            name,
            data_level: 'image',
            item_ids: items.map((sample) => sample.id),
            enabled_for_performance: true,
          },
        });
      }
    }
  }, 180_000);
  afterAll(() => server.dispose());

  describe.each(THEMES_SHOT)('in %s', (theme) => {
    test.each(['object_detection', 'classification'])(
      '%s overview and performance',
      async (task) => {
        const { spec, data } = uploaded.get(task)!;
        const model = Object.keys(spec.predictions)[0]!;
        const modelId = data.models[model]!;
        const context = await newContext(browser, {
          baseURL: server.url,
          theme,
          colorScheme: theme.startsWith('dark') ? 'dark' : 'light',
        });
        const page = await context.newPage();
        pages.push(page);
        await signIn(page, ADMIN.email, ADMIN.password);
        const name = task === 'object_detection' ? 'detection' : 'classification';

        await page.goto(`/models/datasets/${data.datasetId}/predictions/${modelId}/overview`);
        await page.getByTestId('model-name').filter({ hasText: model }).waitFor();
        await page.locator('[data-testid^="headline-"]').first().waitFor({ timeout: 120_000 });
        await screenshot(page, `model-overview-${name}-${theme}`);

        const performance = new PerformancePage(page);
        await performance.open(data.datasetId, modelId, model);
        await performance.waitForStatistics();
        await performance.section('Overall Performance').getByTestId('overall-table').waitFor();
        await screenshot(page, `model-performance-${name}-${theme}`);
        const finegrained = performance.section('Fine-grained Performance');
        await finegrained.locator('canvas').first().waitFor({ timeout: 120_000 });
        await finegrained.scrollIntoViewIfNeeded();
        await screenshot(page, `model-performance-${name}-finegrained-${theme}`);
        const subsets = performance.section('Subset Performance');
        await subsets.getByTestId('subset-performance-card').nth(1).waitFor({ timeout: 120_000 });
        await subsets.scrollIntoViewIfNeeded();
        await screenshot(page, `model-performance-${name}-subsets-${theme}`);
        await performance.chooseMetadataField('weather');
        await performance.metadataSection().scrollIntoViewIfNeeded();
        await screenshot(page, `model-performance-${name}-metadata-${theme}`);
        await performance.chooseMetadataField('brightness');
        await performance.metadataSection().scrollIntoViewIfNeeded();
        await screenshot(page, `model-performance-${name}-metadata-numeric-${theme}`);
        await context.close();
      },
    );
  });
});
