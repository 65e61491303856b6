// Settings → API Keys: the Development key card, and the named keys with create, rotate, revoke.
import type { Locator, Page } from 'playwright-core';
import type { Shell } from './Shell';

export class ApiKeysSettings {
  constructor(private readonly page: Page) {}

  /** Opens the page the way a person does: Settings in the navigation, then API Keys. */
  async open(shell: Shell): Promise<void> {
    await shell.openSettings();
    await this.page.getByRole('menuitem', { name: 'API Keys' }).click();
    await this.page.waitForURL('**/settings/api_keys');
    await this.table().waitFor();
  }

  developmentKey(): Locator {
    return this.page.getByLabel('Development API key');
  }

  table(): Locator {
    return this.page.getByRole('table');
  }

  row(name: string): Locator {
    return this.table().getByRole('row').filter({ hasText: name });
  }

  /** The Last used cell of a key's row. */
  lastUsed(name: string): Locator {
    return this.row(name).getByRole('cell').nth(3);
  }

  /** Creates a key (the name submitted with Enter) and returns its secret, read from the clipboard. */
  async create(name: string): Promise<string> {
    await this.page.getByRole('button', { name: 'Create API key' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Create API key' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByLabel('Name').press('Enter');
    return this.copySecret('Copy your new API key');
  }

  /** Rotates a key after confirming, and returns the new secret. */
  async rotate(name: string): Promise<string> {
    await this.row(name)
      .getByRole('button', { name: `Rotate ${name}` })
      .click();
    const confirm = this.confirmation(`Rotate the API key “${name}”?`);
    await confirm.getByRole('button', { name: 'Rotate' }).click();
    return this.copySecret('Copy the new secret');
  }

  /** Revokes a key after confirming, and waits until its row is gone. */
  async revoke(name: string): Promise<void> {
    await this.row(name)
      .getByRole('button', { name: `Revoke ${name}` })
      .click();
    const confirm = this.confirmation(`Revoke the API key “${name}”?`);
    await confirm
      .getByText('Scripts using this key stop working at once.', { exact: false })
      .waitFor();
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await this.page.getByText(`API key “${name}” revoked.`).waitFor();
    await this.row(name).waitFor({ state: 'detached' });
  }

  private confirmation(title: string): Locator {
    return this.page.getByRole('dialog').filter({ hasText: title });
  }

  /** Clicks Copy in the one-time secret dialog, reads the clipboard and closes the dialog. */
  private async copySecret(title: string): Promise<string> {
    const dialog = this.page.getByRole('dialog', { name: title });
    await dialog.waitFor();
    await dialog.getByText('Copy it now: it will not be shown again.').waitFor();
    // The clipboard answers only the focused page.
    await this.page.bringToFront();
    await dialog.getByRole('button', { name: 'Copy key' }).click();
    await this.page.getByText('Copied!').first().waitFor();
    const secret = await this.page.evaluate(() => navigator.clipboard.readText());
    const shown = await dialog.getByTestId('new-api-key').inputValue();
    if (secret !== shown) throw new Error('The copied secret is not the one shown');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'hidden' });
    return secret;
  }
}
