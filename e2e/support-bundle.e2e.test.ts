// Journey: Settings → Support downloads the server's support bundle (a zip).
import { readFile } from 'node:fs/promises';
import { expect, test } from 'vitest';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();

test('the support bundle downloads as a zip named with a timestamp', async () => {
  const { page } = journey;
  await signIn(page, ADMIN.email, ADMIN.password, '/settings/support');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download support bundle' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^loupe-support-.+\.zip$/);
  const zip = await readFile((await download.path()) ?? '');
  expect(zip.subarray(0, 2).toString()).toBe('PK');

  // Clearing this browser's preferences says so.
  await page.getByRole('button', { name: 'Clear browser preferences' }).click();
  await page.getByText('Browser preferences cleared successfully.').waitFor();
});
