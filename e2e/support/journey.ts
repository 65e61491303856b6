// Shared setup for journeys that start from a set-up instance: a server, a browser, a page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { LoginPage } from '../pages/LoginPage';
import { Shell } from '../pages/Shell';
import { launchBrowser, newContext, screenshotFailures, type ContextOptions } from './browser';
import { LoupeServer, type ServerOptions } from './server';

export const ADMIN = { name: 'Cleo Admin', email: 'cleo@acme.test', password: 'admin-password-1' };

export interface Journey {
  server: LoupeServer;
  browser: Browser;
  page: Page;
  /** Opens another browser context (another person) on the same server. */
  newPage: (options?: Partial<ContextOptions>) => Promise<Page>;
}

/** Starts a set-up server and a browser before the file's tests, and stops both after. */
export function useSetUpInstance(
  options: ServerOptions & { theme?: ContextOptions['theme'] } = {},
) {
  const journey = {} as Journey;
  const pages: Page[] = [];
  beforeAll(async () => {
    journey.server = new LoupeServer(options);
    await journey.server.start();
    await journey.server.setUp(ADMIN);
    journey.browser = await launchBrowser();
    journey.newPage = async (extra = {}) => {
      const context = await newContext(journey.browser, {
        baseURL: journey.server.url,
        theme: options.theme ?? 'lightBlue',
        ...extra,
      });
      const page = await context.newPage();
      pages.push(page);
      return page;
    };
    journey.page = await journey.newPage();
  });
  screenshotFailures(() => pages);
  afterAll(async () => {
    await journey.browser?.close();
    await journey.server?.dispose();
  });
  return journey;
}

/** Signs in through the login page and dismisses the Getting started dialog if it opens. */
export async function signIn(page: Page, email: string, password: string, path = '/datasets') {
  await page.goto(path);
  const login = new LoginPage(page);
  await login.expectShown();
  await login.login(email, password);
  await page.waitForURL((url) => !url.pathname.startsWith('/login'));
  const shell = new Shell(page);
  const dialog = shell.gettingStarted();
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .waitFor()
    .catch(() => undefined);
  if (await dialog.isVisible()) await shell.closeGettingStarted();
  return shell;
}
