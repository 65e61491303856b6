// Settings → Users.
import type { Locator, Page } from 'playwright-core';

export class UsersSettings {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto('/settings/users');
    await this.page.getByRole('table').waitFor();
  }

  row(name: string): Locator {
    return this.page.getByRole('row').filter({ hasText: name });
  }

  addButton(): Locator {
    return this.page.getByRole('button', { name: 'Add user' });
  }

  /** Adds a user and returns the reset-password link shown right after. */
  async addUser(user: { name: string; email: string; role?: 'Admin' | 'Member' }): Promise<string> {
    await this.addButton().click();
    const dialog = this.page.getByRole('dialog', { name: 'Add user' });
    await dialog.getByLabel('Name').fill(user.name);
    await dialog.getByLabel('Email').fill(user.email);
    if (user.role === 'Admin') {
      await dialog.getByLabel('Role').click();
      // antd draws the visible options apart from its accessible listbox.
      await this.page.locator('.ant-select-item-option').filter({ hasText: 'Admin' }).click();
    }
    await dialog.getByRole('button', { name: 'Add user' }).click();
    return this.copyResetLinkFromDialog();
  }

  /** Clicks Copy in the reset-link dialog, reads the clipboard and closes the dialog. */
  async copyResetLinkFromDialog(): Promise<string> {
    const dialog = this.page.getByRole('dialog', { name: 'Reset password link' });
    await dialog.waitFor();
    // The clipboard answers only the focused page.
    await this.page.bringToFront();
    await dialog.getByRole('button', { name: 'Copy' }).click();
    await this.page.getByText('Copied!').first().waitFor();
    const link = await this.page.evaluate(() => navigator.clipboard.readText());
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    return link;
  }

  async search(text: string): Promise<void> {
    await this.page.getByLabel('Search by name or email').fill(text);
  }
}
