// The curation controls (docs/curation.md): an item's or a selection's actions (buttons in the
// item viewer, an 'Actions' menu on a selection), the dialog that asks which subset, label or
// split, and the pending-changes queue with 'Apply changes'. Actions only queue; Apply sends them.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export type ActionName = 'Add to subset' | 'Update label' | 'Update split' | 'Delete';

export class CurationPanel {
  /** `scope`: where the actions are (the viewer's sidebar, the map's selection strip). */
  constructor(
    private readonly page: Page,
    private readonly scope: Locator,
  ) {}

  private async run(action: ActionName): Promise<void> {
    const actions = this.scope.getByTestId('item-actions');
    await actions.waitFor();
    // A selection's actions are one 'Actions' button opening a menu; an item's are buttons.
    if (await actions.evaluate((node) => node.tagName === 'BUTTON')) {
      await actions.click();
      await this.page.getByRole('menuitem', { name: action }).click();
    } else {
      await actions.getByRole('button', { name: new RegExp(`${action}$`) }).click();
    }
  }

  private dialog(action: ActionName): Locator {
    return this.page.getByRole('dialog', { name: action, exact: true });
  }

  /** Chooses an option of an antd Select in the action's dialog. */
  private async choose(dialog: Locator, combobox: string, option: string): Promise<void> {
    await dialog.getByRole('combobox', { name: combobox }).click();
    await this.page
      .locator('.ant-select-dropdown:visible .ant-select-item-option')
      .filter({ hasText: new RegExp(`^${option}$`) })
      .first()
      .click();
  }

  /** Confirms the action's dialog: 'Add to pending changes'. */
  private async queueFrom(dialog: Locator): Promise<void> {
    await dialog.getByRole('button', { name: 'Add to pending changes' }).click();
    await dialog.waitFor({ state: 'hidden' });
  }

  /** Add to subset → a new subset named in the dialog (created when the queue is applied). */
  async addToNewSubset(name: string): Promise<void> {
    await this.run('Add to subset');
    const dialog = this.dialog('Add to subset');
    await dialog.getByRole('textbox', { name: 'New subset name' }).fill(name);
    await dialog.getByRole('button', { name: 'Create subset' }).click();
    // The new subset is chosen (tagged 'new'): the queue creates it.
    await dialog
      .getByTestId('subset-chooser')
      .locator('.ant-select')
      .filter({ hasText: `${name}new` })
      .waitFor();
    await this.queueFrom(dialog);
  }

  async updateLabel(label: string): Promise<void> {
    await this.run('Update label');
    const dialog = this.dialog('Update label');
    await this.choose(dialog, 'Label', label);
    await this.queueFrom(dialog);
  }

  async updateSplit(split: string): Promise<void> {
    await this.run('Update split');
    const dialog = this.dialog('Update split');
    await this.choose(dialog, 'Split', split);
    await this.queueFrom(dialog);
  }

  /** Delete queues at once, without a dialog. */
  async delete(): Promise<void> {
    await this.run('Delete');
  }

  /** The pending-changes box (the explorer shows it from its 'Pending changes' button). */
  queue(): Locator {
    return this.page.getByTestId('pending-changes-box');
  }

  /** Opens the explorer's queue from its toolbar button. */
  async openQueue(): Promise<void> {
    await this.page.getByTestId('pending-changes').click();
    await this.queue().waitFor();
  }

  /** The queue holds exactly these kinds of change, in order; answers their descriptions. */
  async expectQueued(kinds: string[]): Promise<string[]> {
    const rows = this.queue().getByTestId('pending-change');
    await rows.nth(kinds.length - 1).waitFor();
    const seen = await rows.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-kind')),
    );
    expect(seen).toEqual(kinds);
    return rows.allTextContents();
  }

  /**
   * 'Apply changes', then waits for the outcome the app reports: 'Changes applied successfully.'
   * (with 'N items deleted' when samples were deleted).
   */
  async apply(deleted = 0): Promise<void> {
    await this.queue().getByRole('button', { name: 'Apply changes' }).click();
    const text = `Changes applied successfully.${deleted > 0 ? ` ${deleted} items deleted` : ''}`;
    await this.page
      .getByTestId('apply-result')
      .filter({ hasText: new RegExp(`^${text.replace(/\./g, '\\.')}$`) })
      .first()
      .waitFor();
  }
}
