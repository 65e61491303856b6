// The signed-in frame: navigation, Getting started dialog, profile menu, and its fit to the window.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { waitForTestEvent } from '../support/browser';

export class Shell {
  constructor(private readonly page: Page) {}

  get nav(): Locator {
    return this.page.getByRole('navigation', { name: 'Main navigation' });
  }

  async expectPage(title: string): Promise<void> {
    await this.page.getByRole('heading', { name: title, level: 4 }).waitFor();
  }

  async expectPageEvent(page: string): Promise<void> {
    await waitForTestEvent(this.page, 'page:rendered', { page });
  }

  gettingStarted(): Locator {
    return this.page.getByRole('dialog', { name: 'Getting started' });
  }

  async closeGettingStarted(): Promise<void> {
    const dialog = this.gettingStarted();
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  async openProfileMenu(): Promise<Locator> {
    const menu = this.page.getByTestId('profile-menu');
    if (!(await menu.isVisible()))
      await this.nav.getByRole('button', { name: /^Profile:/ }).click();
    await menu.waitFor();
    return menu;
  }

  async closeProfileMenu(): Promise<void> {
    const menu = this.page.getByTestId('profile-menu');
    await this.page.getByRole('main').click({ position: { x: 5, y: 5 } });
    await menu.waitFor({ state: 'hidden' });
  }

  async logout(): Promise<void> {
    const menu = await this.openProfileMenu();
    await menu.getByRole('button', { name: 'Log out' }).click();
    // The click's page load may be overtaken by a second one to the same page (a poll answered
    // 401 meanwhile) and abort; wait for the page rather than for one navigation.
    await this.page.getByRole('heading', { name: 'Login' }).waitFor();
    if (new URL(this.page.url()).pathname !== '/login')
      throw new Error(`Logging out led to ${this.page.url()}, not /login`);
  }

  async changePassword(current: string, next: string, confirm = next): Promise<Locator> {
    const menu = await this.openProfileMenu();
    await menu.getByRole('button', { name: 'Change Password' }).click();
    const dialog = this.page.getByRole('dialog', { name: 'Change Password' });
    await dialog.waitFor();
    await dialog.getByLabel('Current Password').fill(current);
    await dialog.getByLabel('New Password').fill(next);
    await dialog.getByLabel('Confirm Password').fill(confirm);
    await dialog.getByRole('button', { name: 'Change Password' }).click();
    return dialog;
  }

  async openSettings(): Promise<void> {
    await this.nav.getByRole('button', { name: 'Settings' }).click();
    await this.page.waitForURL('**/settings/users');
  }

  /** Hovers a control and waits for exactly `text` to appear as its tooltip. */
  async expectTooltip(target: Locator, text: string): Promise<void> {
    await this.page.mouse.move(0, 0);
    await target.hover();
    const exact = new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`);
    await this.page
      .getByRole('tooltip')
      .filter({ hasText: exact })
      .filter({ visible: true })
      .waitFor();
    await this.page.mouse.move(0, 0);
  }

  /**
   * The frame is exactly the window: the document never scrolls (pages scroll inside it, so
   * there is no second scrollbar) and the navigation reaches the window's bottom edge.
   */
  async expectFitsViewport(what: string): Promise<void> {
    const measured = await this.page.evaluate(() => ({
      scrollHeight: document.documentElement.scrollHeight,
      scrollWidth: document.documentElement.scrollWidth,
      innerHeight: window.innerHeight,
      innerWidth: window.innerWidth,
      navBottom: document
        .querySelector('nav[aria-label="Main navigation"]')
        ?.getBoundingClientRect().bottom,
    }));
    expect(measured.scrollHeight, `${what}: document height`).toBeLessThanOrEqual(
      measured.innerHeight,
    );
    expect(measured.scrollWidth, `${what}: document width`).toBeLessThanOrEqual(
      measured.innerWidth,
    );
    expect(measured.navBottom, `${what}: navigation bottom`).toBe(measured.innerHeight);
  }

  async toast(text: string): Promise<void> {
    await this.page.getByText(text, { exact: true }).first().waitFor();
  }
}
