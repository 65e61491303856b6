// The first-run wizard as a user walks it.
import type { Page } from 'playwright-core';
import { waitForTestEvent } from '../support/browser';

export class SetupWizard {
  constructor(private readonly page: Page) {}

  async expectIntro(): Promise<void> {
    await this.page.waitForURL('**/setup');
    await this.page.getByText('Welcome to Loupe').waitFor();
  }

  async start(): Promise<void> {
    await this.page.getByRole('button', { name: 'Get started' }).click();
    await this.page.getByText('Setup your company').waitFor();
  }

  async submitCompany(name: string): Promise<void> {
    await this.page.getByLabel('Company Name').fill(name);
    await this.page.getByRole('button', { name: 'Continue' }).click();
    await this.page.getByText('Setup your initial user').waitFor();
  }

  async submitUser(
    user: { name: string; email: string; password: string },
    confirm = user.password,
  ) {
    await this.page.getByLabel('Name', { exact: true }).fill(user.name);
    await this.page.getByLabel('Email Address').fill(user.email);
    await this.page.getByLabel('New Password').fill(user.password);
    await this.page.getByLabel('Confirm Password').fill(confirm);
    await this.page.getByRole('button', { name: 'Continue' }).click();
  }

  async expectComplete(): Promise<void> {
    await this.page.getByText('Setup Complete!').waitFor();
    await waitForTestEvent(this.page, 'page:rendered', { page: 'setup-3' });
  }

  async goToDashboard(): Promise<void> {
    await this.page.getByRole('button', { name: 'Go to dashboard' }).click();
    await this.page.waitForURL('**/datasets');
  }
}
