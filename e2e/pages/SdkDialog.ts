// The SDK dialog: the install and configure commands.
import type { Locator, Page } from 'playwright-core';

export class SdkDialog {
  constructor(private readonly page: Page) {}

  dialog(): Locator {
    return this.page.getByRole('dialog', { name: 'Set up SDK' });
  }

  async installCommand(): Promise<string> {
    return (await this.dialog().getByTestId('sdk-install-command').textContent()) ?? '';
  }

  async configureCommand(): Promise<string> {
    return (await this.dialog().getByTestId('sdk-configure-command').textContent()) ?? '';
  }

  async close(): Promise<void> {
    await this.dialog().getByRole('button', { name: 'Done' }).click();
    await this.dialog().waitFor({ state: 'hidden' });
  }
}
