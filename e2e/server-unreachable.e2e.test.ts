// Journey: the server stops mid-session → 'The server is unreachable' → it comes back → Retry.
import { test } from 'vitest';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();

test('Retry recovers once the server is back', async () => {
  const { page, server } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  await shell.expectPage('Datasets');

  await server.stop();
  await shell.openSettings();
  const dialog = page.getByRole('dialog', { name: 'The server is unreachable' });
  await dialog.waitFor();

  // Cancel closes the dialog; the page says what failed.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByText('Unable to load users').waitFor();
  await page.getByRole('button', { name: 'Retry' }).click();
  await dialog.waitFor();

  await server.start();
  await dialog.getByRole('button', { name: 'Retry' }).click();
  await dialog.waitFor({ state: 'hidden' });
  await page.getByRole('row').filter({ hasText: ADMIN.email }).waitFor();
});
