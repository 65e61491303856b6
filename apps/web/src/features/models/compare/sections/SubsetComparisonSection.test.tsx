// Subset Performance on the comparison page: groups by data level with 3 shown before 'Show
// more', search, the counts per category, the empty texts, pending subsets, the failure text and
// the modal that enables subsets.
import '../../../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { findDialog } from '../../../../test/findDialog';
import { renderApp } from '../../../../test/renderApp';
import {
  base,
  comparePage,
  comparisonServer,
  MODEL_B,
  subset,
  subsetComparisonEntry,
  subsetsComparison,
} from '../testData';

vi.mock('../../performance/charts/EChart', () => import('../../performance/charts/FakeEChart'));

const region = () => screen.findByRole('region', { name: 'Subset Performance' });
const cardNames = (container: HTMLElement) =>
  within(container)
    .queryAllByTestId('subset-comparison-card')
    .map((card) => within(card).getAllByRole('link')[0]!.textContent);
const user = () => userEvent.setup({ delay: null });

test('subsets group by data level (audio, image, objects), 3 shown before "Show more"', async () => {
  const images = Array.from({ length: 5 }, (_, i) => subset(i + 1));
  const objects = [subset(6, { data_level: 'image_object' })];
  const audio = [subset(7, { data_level: 'audio' })];
  comparisonServer({
    subsets: [...objects, ...images, ...audio, subset(8, { enabled_for_performance: false })],
  });
  renderApp(comparePage(MODEL_B));
  const section = await region();
  const imageGroup = await within(section).findByRole('group', { name: 'Images' });
  expect(cardNames(imageGroup)).toEqual(['subset 1', 'subset 2', 'subset 3']);
  const levels = within(section)
    .getAllByRole('group')
    .map((group) => group.getAttribute('aria-label'))
    .filter((name) => ['Audio', 'Images', 'Objects'].includes(name ?? ''));
  expect(levels).toEqual(['Audio', 'Images', 'Objects']);
  await user().click(within(imageGroup).getByRole('button', { name: 'Show 2 more' }));
  expect(cardNames(imageGroup)).toHaveLength(5);
  await user().click(within(imageGroup).getByRole('button', { name: 'Show less' }));
  expect(cardNames(imageGroup)).toHaveLength(3);

  // A card: both models' scores on its metric (accuracy, as is), the delta and its category.
  const card = within(imageGroup).getAllByTestId('subset-comparison-card')[0]!;
  expect(card.textContent).toContain('Model A 0.50');
  expect(card.textContent).toContain('Model B 0.60');
  expect(card.textContent).toContain('+20.00% ↑');
  expect(card.textContent).toContain('Model B is better');
  // Every one of the 7 enabled subsets has B better.
  expect(within(section).getByTestId('subset-count-model_b_is_better').textContent).toBe(
    'Model B is better: 7',
  );
});

test('search matches subset names; no match says so', async () => {
  comparisonServer({ subsets: [subset(1, { name: 'Night' }), subset(2, { name: 'Day' })] });
  renderApp(comparePage(MODEL_B));
  const section = await region();
  await within(section).findByRole('group', { name: 'Images' });
  await user().type(within(section).getByRole('searchbox', { name: 'Search subsets' }), 'nIGHT');
  await waitFor(() =>
    expect(cardNames(within(section).getByRole('group', { name: 'Images' }))).toEqual(['Night']),
  );
  await user().type(within(section).getByRole('searchbox', { name: 'Search subsets' }), 'zzz');
  expect(await within(section).findByText('No subsets matching "nIGHTzzz" found')).toBeTruthy();
});

test('empty texts: no subsets, and none enabled (with the hint)', async () => {
  const first = comparisonServer({ subsets: [] });
  const view = renderApp(comparePage(MODEL_B));
  expect(await within(await region()).findByText('No subsets available')).toBeTruthy();
  expect(first.calls.some((call) => call.path === `${base}/comparison/subsets`)).toBe(true);
  view.unmount();
  comparisonServer({ subsets: [subset(1, { enabled_for_performance: false })] });
  renderApp(comparePage(MODEL_B));
  const section = await region();
  expect(await within(section).findByText('No subset performance entries found')).toBeTruthy();
  expect(
    within(section).getByText('Use the + button to enable subsets in performance and comparison.'),
  ).toBeTruthy();
});

test('pending subsets are counted; a failure says so', async () => {
  const item = subset(1);
  comparisonServer({
    subsets: [item, subset(2), subset(3)],
    routes: {
      [`GET ${base}/comparison/subsets`]: () => ({
        body: subsetsComparison([subsetComparisonEntry(item)], [subset(2).id, subset(3).id]),
      }),
    },
  });
  const view = renderApp(comparePage(MODEL_B));
  expect((await screen.findByTestId('subsets-pending')).textContent).toBe('2 subsets pending');
  view.unmount();
  comparisonServer({
    subsets: [item],
    routes: {
      [`GET ${base}/comparison/subsets`]: () => ({
        status: 500,
        body: { description: 'Subsets are broken', retriable: false },
      }),
    },
  });
  renderApp(comparePage(MODEL_B));
  expect(
    await within(await region()).findByText(
      'Subset performance comparison failed to load',
      {},
      { timeout: 8000 },
    ),
  ).toBeTruthy();
}, 15000);

test('"+" opens the modal that enables subsets, 10 a page with a size changer', async () => {
  const subsets = Array.from({ length: 12 }, (_, i) => subset(i + 1));
  comparisonServer({ subsets });
  renderApp(comparePage(MODEL_B));
  const section = await region();
  await user().click(
    within(section).getByRole('button', { name: 'Enable subsets in performance' }),
  );
  const dialog = await findDialog('Subsets in performance and comparison');
  const table = await within(dialog).findByTestId('enable-subsets-table');
  await waitFor(() => expect(within(table).getAllByRole('switch')).toHaveLength(10));
  expect(dialog.querySelector('.ant-pagination-options-size-changer')).toBeTruthy();
});
