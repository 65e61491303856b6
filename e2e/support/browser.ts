// Debian's Chromium through playwright-core (never a downloaded browser), one context per
// journey, screenshots under test-results/screenshots/.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterEach } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
export const screenshotDir = join(root, 'test-results/screenshots');

export const THEMES = ['lightRed', 'lightBlue', 'darkRed', 'darkGray', 'darkBlue'] as const;
export type ThemeId = (typeof THEMES)[number];

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.LOUPE_CHROMIUM ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      // WebGL (the embeddings map) in software: without these, headless Chromium has no WebGL.
      '--use-angle=swiftshader',
      '--enable-unsafe-swiftshader',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

export interface ContextOptions {
  baseURL: string;
  /** The theme stored before the app loads. */
  theme?: ThemeId;
  colorScheme?: 'light' | 'dark';
}

export async function newContext(
  browser: Browser,
  options: ContextOptions,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: options.baseURL,
    viewport: { width: 1440, height: 900 },
    colorScheme: options.colorScheme ?? 'light',
    // The app then switches antd's motion off: a click never lands on a dialog mid-zoom.
    reducedMotion: 'reduce',
    acceptDownloads: true,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: options.baseURL,
  });
  // No journey depends on the public versions file: answer it locally.
  await context.route('https://releases.loupe.test/**', (route) =>
    route.fulfill({ status: 404, body: 'not found' }),
  );
  if (options.theme) {
    const theme = options.theme;
    await context.addInitScript((id) => {
      if (!window.sessionStorage.getItem('loupe.e2e.themeApplied')) {
        window.localStorage.setItem('loupe.theme', id);
        window.sessionStorage.setItem('loupe.e2e.themeApplied', '1');
      }
    }, theme);
  }
  return context;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(screenshotDir, { recursive: true });
  // antd drives its motion classes from script: wait until no dialog or popup is mid-motion.
  await page
    .waitForFunction(
      () => !document.querySelector('[class*="-appear"], [class*="-enter"], [class*="-leave"]'),
      undefined,
      { timeout: 3000 },
    )
    .catch(() => undefined);
  // Finite animations (antd's fades and zooms) are fast-forwarded, so nothing is caught midway.
  await page.screenshot({ path: join(screenshotDir, `${name}.png`), animations: 'disabled' });
}

/** Waits until the app has announced a test event matching `predicate` (no sleeps). */
export async function waitForTestEvent(
  page: Page,
  type: string,
  match: Record<string, unknown> = {},
): Promise<void> {
  await page.waitForFunction(
    ({ type: wanted, match: fields }) =>
      (
        window as unknown as { __loupeTestEvents?: Record<string, unknown>[] }
      ).__loupeTestEvents?.some(
        (event) =>
          event.type === wanted &&
          Object.entries(fields).every(([key, value]) => event[key] === value),
      ) ?? false,
    { type, match },
  );
}

/** Saves a screenshot of the given pages when a test fails, named after the test. */
export function screenshotFailures(pages: () => (Page | undefined)[]): void {
  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail') return;
    const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60);
    let index = 0;
    for (const page of pages()) {
      if (!page || page.isClosed()) continue;
      await screenshot(page, `failure-${name}-${index++}`).catch(() => undefined);
    }
  });
}
