// The Model comparison page (docs/model-comparison.md, "The comparison page"): the Compare with
// menu, Overall (the better model and both scores), the per-class breakdown with its class
// popovers, and the per-item sections with their segment bars and subcategory cards.
import type { ComparisonCategory, ObjectSubcategory } from '@loupe/contracts';
import type { Locator, Page } from 'playwright-core';

export type ModelSide = 'model_a' | 'model_b';

export class ComparisonPage {
  constructor(private readonly page: Page) {}

  root(): Locator {
    return this.page.getByTestId('model-comparison');
  }

  section(name: string): Locator {
    return this.page.getByRole('region', { name, exact: true });
  }

  /** Without model B the page shows the picker; the Compare with menu is in the header. */
  async expectPicker(): Promise<void> {
    await this.page.getByTestId('model-picker').waitFor();
  }

  /** Opens the Compare with menu of the header and chooses model B by its name. */
  async chooseModelB(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Compare with' }).click();
    await this.page
      .getByRole('menu', { name: 'Compare with' })
      .getByRole('menuitem', { name, exact: true })
      .click();
    // The button keeps its accessible name and shows the chosen model.
    await this.page
      .getByRole('button', { name: 'Compare with' })
      .filter({ hasText: `Compare with: ${name}` })
      .waitFor();
  }

  /** Waits until the comparison is computed (the page polls while the job runs). */
  async waitForComparison(timeout = 120_000): Promise<void> {
    await this.page.getByTestId('overall-headline').waitFor({ timeout });
  }

  async headline(): Promise<string> {
    return (await this.page.getByTestId('overall-headline').textContent()) ?? '';
  }

  /** The score a gauge of Overall shows ('63.21%'): the first line of the gauge's block. */
  async score(side: ModelSide): Promise<string> {
    const text = await this.page.getByTestId(`overall-score-${side}`).innerText();
    return (text.split('\n')[0] ?? '').trim();
  }

  /** Selects a category of a breakdown's segment bar (which opens its list or tab). */
  async selectSegment(section: string, category: ComparisonCategory): Promise<void> {
    await this.section(section).getByTestId(`segment-${category}`).click();
  }

  /** The entities a per-class list shows, in order. */
  entityList(category: ComparisonCategory): Locator {
    return this.section('Per class breakdown').getByTestId(`entity-list-${category}`);
  }

  /** Opens the 'View objects' popover of a class of a per-class list; answers the popover. */
  async openClassPopover(category: ComparisonCategory, className: string): Promise<Locator> {
    await this.selectSegment('Per class breakdown', category);
    const list = this.entityList(category);
    await list.waitFor();
    await list.getByRole('button', { name: className, exact: true }).click();
    const popover = this.page.locator('.ant-popover:visible').filter({ hasText: 'View objects' });
    await popover.waitFor();
    return popover;
  }

  /** The card of an item-level subcategory in a section's tab (its category selected first). */
  async subcategoryCard(
    section: string,
    category: ComparisonCategory,
    subcategory: ObjectSubcategory,
  ): Promise<Locator> {
    await this.selectSegment(section, category);
    const card = this.section(section).getByTestId(`subcategory-${subcategory}`);
    await card.waitFor();
    return card;
  }

  /** An 'Explore items for Model A/B' link inside `scope`. */
  exploreLink(scope: Locator, side: ModelSide): Locator {
    return scope.getByRole('link', {
      name: side === 'model_a' ? 'Explore items for Model A' : 'Explore items for Model B',
    });
  }
}
