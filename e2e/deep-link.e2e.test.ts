// Journey: log out → open a guarded deep link → login → land on that deep link.
import { expect, test } from 'vitest';
import { LoginPage } from './pages/LoginPage';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();

test('a guarded deep link survives sign-in with its query and hash', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  await shell.expectPage('Datasets');
  await shell.logout();

  const deepLink = '/settings/api_keys?from=mail&tab=key#development';
  await page.goto(deepLink);
  const login = new LoginPage(page);
  await login.expectShown();
  const redirect = new URL(page.url()).searchParams.get('redirect');
  expect(redirect).toBe(deepLink);

  // A wrong password is reported inline and the redirect is kept.
  await login.login(ADMIN.email, 'not-the-password');
  await login.expectIncorrectCredentials();
  expect(new URL(page.url()).searchParams.get('redirect')).toBe(deepLink);

  await login.login(ADMIN.email, ADMIN.password, true);
  await page.waitForURL('**/settings/api_keys?from=mail&tab=key#development');
  await shell.expectPage('API Keys');
  await page.getByText('Development').first().waitFor();

  // Signed in, the login page sends the user on; unknown paths say so.
  await page.goto('/login');
  await page.waitForURL('**/datasets');
  await page.goto('/no/such/page');
  await page.getByText('Page not found').waitFor();
  // Appearance exists only in development: production sends it to Users.
  await page.goto('/settings/appearance');
  await page.waitForURL('**/settings/users');
});
