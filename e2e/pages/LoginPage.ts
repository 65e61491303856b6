// The sign-in page.
import type { Page } from 'playwright-core';

export class LoginPage {
  constructor(private readonly page: Page) {}

  async expectShown(): Promise<void> {
    await this.page.waitForURL(/\/login/);
    await this.page.getByRole('heading', { name: 'Login' }).waitFor();
  }

  async login(email: string, password: string, remember = false): Promise<void> {
    await this.page.getByLabel('Email address').fill(email);
    await this.page.getByLabel('Password', { exact: true }).fill(password);
    if (remember) await this.page.getByLabel('Remember me').check();
    await this.page.getByRole('button', { name: 'Login', exact: true }).click();
  }

  async expectIncorrectCredentials(): Promise<void> {
    await this.page.getByRole('alert').getByText('Incorrect email or password').waitFor();
  }
}
