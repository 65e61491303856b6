// Journey: an admin adds a member → copies the reset link → the member sets a password → signs
// in → sees the controls an admin has, disabled, with the reasons of docs/product.md, Shell §6.
import { expect, test } from 'vitest';
import { LoginPage } from './pages/LoginPage';
import { UsersSettings } from './pages/UsersSettings';
import { ADMIN, signIn, useSetUpInstance } from './support/journey';

const journey = useSetUpInstance();
const member = { name: 'Ben Member', email: 'ben@acme.test', password: 'member-password-1' };

test('an invited member sets a password, signs in and sees what only admins may do', async () => {
  const { page } = journey;
  const shell = await signIn(page, ADMIN.email, ADMIN.password);
  const users = new UsersSettings(page);
  await users.goto();

  // The admin cannot disable themself.
  const ownSwitch = users.row(ADMIN.name).getByRole('switch');
  await shell.expectTooltip(
    ownSwitch.locator('xpath=ancestor::span[@data-disabled-reason][1]'),
    'You cannot disable yourself as a user',
  );

  const link = await users.addUser(member);
  expect(link).toMatch(new RegExp(`^${journey.server.url}/resetPassword/[^/]+$`));
  await users.row(member.name).waitFor();

  // A second user with the same email is refused with the server's message on the field.
  await users.addButton().click();
  const dialog = page.getByRole('dialog', { name: 'Add user' });
  await dialog.getByLabel('Name').fill('Ben Again');
  await dialog.getByLabel('Email').fill(member.email.toUpperCase());
  await dialog.getByRole('button', { name: 'Add user' }).click();
  await page.getByText('Create user failed').first().waitFor();
  await dialog.getByRole('button', { name: 'Cancel' }).click();

  // Search is case-insensitive on name or email.
  await users.search('BEN@ACME');
  await users.row(member.name).waitFor();
  expect(await users.row(ADMIN.name).count()).toBe(0);
  await users.search('');

  // The member, in their own browser, sets a password from the link.
  const memberPage = await journey.newPage();
  await memberPage.goto(link);
  await memberPage.getByRole('heading', { name: 'Set a new password' }).waitFor();
  await memberPage.getByLabel('New Password').fill('short');
  await memberPage.getByLabel('Confirm Password').fill('short');
  await memberPage.getByRole('button', { name: 'Set password' }).click();
  await memberPage.getByText('New password must be at least 8 characters long.').waitFor();
  await memberPage.getByLabel('New Password').fill(member.password);
  await memberPage.getByLabel('Confirm Password').fill(member.password);
  await memberPage.getByRole('button', { name: 'Set password' }).click();
  await memberPage.getByText('Password was successfully updated!').waitFor();
  await memberPage.getByRole('button', { name: 'Go To Login' }).click();
  await new LoginPage(memberPage).expectShown();

  // The link works once.
  const reuse = await journey.newPage();
  await reuse.goto(link);
  await reuse.getByLabel('New Password').fill('another-password');
  await reuse.getByLabel('Confirm Password').fill('another-password');
  await reuse.getByRole('button', { name: 'Set password' }).click();
  await reuse.getByText('Reset password failed').first().waitFor();
  await reuse.context().close();

  const memberShell = await signIn(memberPage, member.email, member.password, '/settings/users');
  const memberUsers = new UsersSettings(memberPage);
  await memberPage.getByRole('table').waitFor();
  await memberUsers.row(ADMIN.name).waitFor();

  const expectReason = (target: ReturnType<typeof memberPage.locator>, reason: string) =>
    memberShell.expectTooltip(
      target.locator('xpath=ancestor-or-self::span[@data-disabled-reason][1]'),
      reason,
    );
  expect(await memberUsers.addButton().isDisabled()).toBe(true);
  await expectReason(memberUsers.addButton(), 'You do not have permission to invite users');
  const adminRow = memberUsers.row(ADMIN.name);
  expect(await adminRow.getByRole('button', { name: /^Edit/ }).isDisabled()).toBe(true);
  await expectReason(
    adminRow.getByRole('button', { name: /^Edit/ }),
    'You do not have permission to edit users',
  );
  await expectReason(
    adminRow.getByRole('button', { name: /^Reset password link/ }),
    "You do not have permission to reset users' passwords",
  );
  await expectReason(adminRow.getByRole('switch'), 'You do not have permission to edit users');

  // The license is the admin's business.
  await memberPage.goto('/settings/license');
  await memberPage
    .getByText('Please contact your instance administrator', { exact: false })
    .waitFor();
  await expectReason(
    memberPage.getByRole('button', { name: 'Submit' }),
    'You do not have permission to submit a license key. Please contact your administrator.',
  );

  // Back with the admin: a disabled member can be neither edited nor given a link.
  await users.goto();
  await users.row(member.name).getByRole('switch').click();
  await users.row(member.name).getByText('Disabled').waitFor();
  const memberRow = users.row(member.name);
  await shell.expectTooltip(
    memberRow
      .getByRole('button', { name: /^Edit/ })
      .locator('xpath=ancestor::span[@data-disabled-reason][1]'),
    'This user is disabled',
  );
  await shell.expectTooltip(
    memberRow
      .getByRole('button', { name: /^Reset password link/ })
      .locator('xpath=ancestor::span[@data-disabled-reason][1]'),
    'This user is disabled',
  );
});
