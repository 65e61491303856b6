// Journey: create a named API key in Settings, use it from a script, rotate it, revoke it, and see
// each old secret refused at once.
import { ApiError, api } from '@loupe/contracts';
import { expect, test } from 'vitest';
import { ApiKeysSettings } from './pages/ApiKeysSettings';
import { apiClient } from './support/api';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();

/** What a script holding `key` gets from the API. */
async function statusWith(key: string): Promise<number> {
  const client = apiClient(journey.server, { headers: { 'X-API-Key': key } });
  return client.call(api.datasets.list).then(
    () => 200,
    (error: unknown) => {
      if (error instanceof ApiError) return error.status;
      throw error;
    },
  );
}

test('a named key works from a script until it is rotated or revoked in Settings', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  const keys = new ApiKeysSettings(page);
  await keys.open(shell);
  await keys.developmentKey().waitFor();
  await page.getByText('No named API keys yet').waitFor();

  // Enter submits the name, once.
  const creates: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/api/api_keys'))
      creates.push(request.url());
  });
  const secret = await keys.create('nightly-import');
  expect(creates).toHaveLength(1);
  await expect.poll(() => keys.row('nightly-import').count()).toBe(1);
  expect(await keys.lastUsed('nightly-import').textContent()).toBe('Never');
  expect(await statusWith(secret)).toBe(200);
  await page.reload();
  await keys.lastUsed('nightly-import').getByText('just now').waitFor();

  // A taken name is said on the field, and nothing is created.
  await page.getByRole('button', { name: 'Create API key' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create API key' });
  await dialog.getByLabel('Name').fill('nightly-import');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await dialog.getByText('An API key with that name already exists.').waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });

  const rotated = await keys.rotate('nightly-import');
  expect(rotated).not.toBe(secret);
  expect(await statusWith(secret)).toBe(401);
  expect(await statusWith(rotated)).toBe(200);

  await keys.revoke('nightly-import');
  expect(await statusWith(rotated)).toBe(401);
  await page.getByText('No named API keys yet').waitFor();

  // Logging out (now a POST) from the profile menu still lands on the login page.
  await shell.logout();
});
