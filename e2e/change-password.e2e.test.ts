// Journey: change password from the profile menu, with its rules, toasts and the new password
// taking effect.
import { expect, test } from 'vitest';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();

test('a user changes their password and signs in with the new one', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);

  // The profile menu shows who is signed in, the company and the version; the company copies.
  const menu = await shell.openProfileMenu();
  await menu.getByText(ADMIN.email).waitFor();
  await menu.getByText('Version 0.1.0').waitFor();
  await menu.getByRole('button', { name: 'Company: Acme Inc.' }).click();
  await menu.getByText('Copied!').first().waitFor();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('Acme Inc.');
  await shell.closeProfileMenu();

  // Validation before any call.
  let dialog = await shell.changePassword('', 'short', 'other');
  await dialog.getByText('Current password is required.').waitFor();
  await dialog.getByText('New password must be at least 8 characters long.').waitFor();
  await dialog.getByText("Passwords don't match.").waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // A wrong current password is the server's refusal, shown as an error toast.
  dialog = await shell.changePassword('wrong-password', 'new-password-2');
  await page.getByText(/^Password change failed: .+\.$/).waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  await shell.changePassword(ADMIN.password, 'new-password-2');
  await shell.toast('Password changed successfully!');

  await shell.logout();
  const login = new LoginPage(page);
  await login.login(ADMIN.email, ADMIN.password);
  await login.expectIncorrectCredentials();
  await login.login(ADMIN.email, 'new-password-2');
  await page.waitForURL('**/datasets');
});
