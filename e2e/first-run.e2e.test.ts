// Journey: an empty instance → setup wizard → signed-in dashboard → Getting started → license.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { LoginPage } from './pages/LoginPage';
import { SetupWizard } from './pages/SetupWizard';
import { Shell } from './pages/Shell';
import { launchBrowser, newContext, screenshot, screenshotFailures } from './support/browser';
import { LoupeServer } from './support/server';

const admin = { name: 'Cleo Admin', email: 'cleo@acme.test', password: 'first-run-pass' };
let server: LoupeServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  server = new LoupeServer();
  await server.start();
  browser = await launchBrowser();
  page = await (await newContext(browser, { baseURL: server.url, theme: 'lightBlue' })).newPage();
});

screenshotFailures(() => [page]);

afterAll(async () => {
  await browser?.close();
  await server?.dispose();
});

test('a first visitor is guided from an empty instance to a signed-in dashboard', async () => {
  const wizard = new SetupWizard(page);
  const shell = new Shell(page);

  // Any deep link on an empty instance leads to the wizard.
  await page.goto('/settings/users');
  await wizard.expectIntro();
  await wizard.start();

  // The company rule of docs/product.md, Shell §5 is checked before moving on.
  await page.getByLabel('Company Name').fill('Acme <Labs>');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page
    .getByText(
      'Company name can include only letters, numbers, and the symbols ~!?@#$%^&*()_-,.\'"',
    )
    .waitFor();
  await wizard.submitCompany('Acme Inc.');

  // Mismatched confirmation is refused.
  await wizard.submitUser(admin, 'something-else');
  await page.getByText("Passwords don't match.").waitFor();
  await page.getByLabel('Confirm Password').fill(admin.password);
  await page.getByRole('button', { name: 'Continue' }).click();

  await wizard.expectComplete();
  await page.getByText('Your dashboard is ready.', { exact: false }).waitFor();
  // The earlier steps can be revisited but not submitted twice.
  await page.getByRole('button', { name: 'Go to dashboard' }).waitFor();
  await wizard.goToDashboard();

  // The Getting started dialog opens by itself the first time.
  await shell.gettingStarted().waitFor();
  for (const card of ['Set up SDK', 'Invite users', 'Add dataset', 'Add model']) {
    await shell.gettingStarted().getByText(card, { exact: true }).waitFor();
  }
  // Invite users opens Users with the add-user form open.
  await shell.gettingStarted().getByText('Invite users', { exact: true }).click();
  await page.waitForURL('**/settings/users');
  const addUser = page.getByRole('dialog', { name: 'Add user' });
  await addUser.waitFor();
  // The journeys ask for reduced motion, so the dialog does not zoom: its motion classes may
  // flash for a frame, but whatever animation they carry lasts no time at all.
  const animation = await addUser.evaluate((dialog) => {
    const style = getComputedStyle(dialog);
    return { name: style.animationName, duration: style.animationDuration };
  });
  expect(animation.name === 'none' || animation.duration === '0s').toBe(true);
  await addUser.getByRole('button', { name: 'Cancel' }).click();
  await addUser.waitFor({ state: 'hidden' });
  // Help opens the dialog again.
  await shell.nav.getByRole('button', { name: 'Help' }).click();
  await shell.closeGettingStarted();
  await page.goto('/datasets');
  await shell.expectPage('Datasets');

  // The instance is unlicensed: the admin's license tag links to the license settings.
  await shell.nav.getByText('Unlicensed').click();
  await page.waitForURL('**/settings/license');
  await page.getByText('This instance has no license yet.', { exact: false }).waitFor();
  const key = server.license.issue({
    license_id: 'lic-e2e-1',
    company_name: 'Acme Inc.',
    expiration_ts: Math.floor(Date.now() / 1000) + 365 * 24 * 3600,
  });
  await page.getByLabel('License key').fill(key);
  await page.getByRole('button', { name: 'Submit' }).click();
  await page.getByText('This instance is licensed to Acme Inc.', { exact: false }).waitFor();
  await shell.nav.getByText('Licensed', { exact: true }).waitFor();
  await page.getByRole('button', { name: 'Resubmit' }).waitFor();

  // The session survives a reload, and the wizard is gone for good.
  await page.goto('/setup');
  await page.waitForURL('**/datasets');
  expect(await page.getByRole('dialog', { name: 'Getting started' }).count()).toBe(0);

  // A second browser lands on the login page, not the wizard.
  const other = await (await newContext(browser, { baseURL: server.url })).newPage();
  await other.goto('/');
  await new LoginPage(other).expectShown();
  await screenshot(other, 'journey-login');
  await other.context().close();
});
