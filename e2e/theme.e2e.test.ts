// Journey: pick a theme in Settings → Appearance (development environment) and keep it.
import { expect, test } from 'vitest';
import { screenshot } from './support/browser';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance({ environment: 'development' });

test('a theme chosen in Appearance persists across reloads', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  await shell.openSettings();
  await page.getByRole('menuitem', { name: 'Appearance' }).click();
  await page.waitForURL('**/settings/appearance');
  const themeOf = () => page.evaluate(() => document.documentElement.dataset.theme);
  expect(await themeOf()).toBe('lightBlue');

  await page.getByRole('radio', { name: 'Dark red' }).click();
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'darkRed');
  await screenshot(page, 'settings-appearance-darkRed');

  await page.reload();
  await shell.expectPage('Appearance');
  expect(await themeOf()).toBe('darkRed');
  expect(await page.getByRole('radio', { name: 'Dark red' }).getAttribute('aria-checked')).toBe(
    'true',
  );

  // An invalid stored theme falls back to the default.
  await page.evaluate(() => localStorage.setItem('loupe.theme', 'neonPink'));
  await page.reload();
  await shell.expectPage('Appearance');
  expect(await themeOf()).toBe('lightBlue');
  expect(await page.evaluate(() => localStorage.getItem('loupe.theme'))).toBe('lightBlue');
});
