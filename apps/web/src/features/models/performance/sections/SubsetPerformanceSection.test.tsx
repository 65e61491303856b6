// Subset Performance on the performance page: grouping by data level, 'Show more', search, the
// empty texts, pending subsets, and the modal whose switches enable subsets (with a license).
import '../../../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { findDialog } from '../../../../test/findDialog';
import { renderApp } from '../../../../test/renderApp';
import {
  base,
  page,
  perf,
  performanceServer,
  subset,
  subsetEntry,
  subsetsPerformance,
} from '../testData';

vi.mock('../charts/EChart', () => import('../charts/FakeEChart'));

const region = () => screen.findByRole('region', { name: 'Subset Performance' });
const cardNames = (container: HTMLElement) =>
  within(container)
    .queryAllByTestId('subset-performance-card')
    .map((card) => within(card).getByRole('link').textContent);

test('enabled subsets are grouped by data level, 4 shown before "Show more"', async () => {
  const images = Array.from({ length: 6 }, (_, i) => subset(i + 1));
  const objects = [subset(7, { data_level: 'image_object' })];
  performanceServer({
    task: 'object_detection',
    subsets: [...images, ...objects, subset(8, { enabled_for_performance: false })],
  });
  renderApp(page);
  const section = await region();
  const imageGroup = await within(section).findByRole('group', { name: 'Images' });
  expect(cardNames(imageGroup)).toEqual(['subset-01', 'subset-02', 'subset-03', 'subset-04']);
  const objectGroup = within(section).getByRole('group', { name: 'Objects' });
  expect(cardNames(objectGroup)).toEqual(['subset-07']);
  // Images come before objects.
  const groups = within(section)
    .getAllByRole('group')
    .map((group) => group.getAttribute('aria-label'));
  expect(groups.indexOf('Images')).toBeLessThan(groups.indexOf('Objects'));

  const user = userEvent.setup({ delay: null });
  await user.click(within(imageGroup).getByRole('button', { name: 'Show 2 more' }));
  expect(cardNames(imageGroup)).toHaveLength(6);
  await user.click(within(imageGroup).getByRole('button', { name: 'Show less' }));
  expect(cardNames(imageGroup)).toHaveLength(4);

  // A card shows its metric's value and links to the model's subset page.
  const card = within(imageGroup).getAllByTestId('subset-performance-card')[0]!;
  expect(card.textContent).toContain('50.00%');
  expect(within(card).getByRole('link').getAttribute('href')).toBe(
    `${page.replace('/performance', '')}/subsets/${subset(1).id}`,
  );
});

test('search matches names; no match says so', async () => {
  performanceServer({ subsets: [subset(1, { name: 'night' }), subset(2, { name: 'day' })] });
  renderApp(page);
  const section = await region();
  await within(section).findAllByTestId('subset-performance-card');
  const user = userEvent.setup({ delay: null });
  const search = within(section).getByRole('searchbox', { name: 'Search subsets' });
  await user.type(search, 'NIG');
  expect(cardNames(section)).toEqual(['night']);
  await user.clear(search);
  await user.type(search, 'fog');
  expect(await within(section).findByText('No subsets matching "fog" found')).toBeTruthy();
});

test('empty texts: no subsets at all; subsets but none enabled, with the hint', async () => {
  const first = performanceServer();
  const view = renderApp(page);
  expect(await within(await region()).findByText('No subsets available')).toBeTruthy();
  view.unmount();
  expect(first.calls.some((call) => call.path === `${base}/subsets`)).toBe(true);

  performanceServer({ subsets: [subset(1, { enabled_for_performance: false })] });
  renderApp(page);
  const section = await region();
  expect(await within(section).findByText('No subset performance entries found')).toBeTruthy();
  expect(
    within(section).getByText('Use the + button to enable subsets in performance and comparison.'),
  ).toBeTruthy();
});

test('pending subsets are counted and asked for again until computed', async () => {
  const item = subset(1);
  let calls = 0;
  performanceServer({
    subsets: [item, subset(2, { enabled_for_performance: false })],
    routes: {
      [`GET ${perf}/subsets`]: () => {
        calls += 1;
        return {
          body:
            calls === 1
              ? subsetsPerformance([], [item.id, subset(2).id])
              : subsetsPerformance([subsetEntry(item)]),
        };
      },
    },
  });
  renderApp(page);
  const section = await region();
  expect(await within(section).findByText('2 subsets pending')).toBeTruthy();
  await waitFor(() => expect(cardNames(section)).toEqual(['subset-01']), { timeout: 6000 });
  expect(within(section).queryByTestId('subsets-pending')).toBeNull();
});

test('the chosen split is sent with the subsets request', async () => {
  const { fetchMock } = performanceServer({ subsets: [subset(1)] });
  renderApp(page);
  await within(await region()).findAllByTestId('subset-performance-card');
  const splitsAsked = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://loupe.test'))
      .filter((url) => url.pathname === `${perf}/subsets`)
      .map((url) => url.searchParams.get('split'));
  expect(splitsAsked()).toEqual(['all']);
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name: 'Split' }));
  await user.click(await screen.findByTitle('train'));
  await waitFor(() => expect(splitsAsked()).toEqual(['all', 'train']));
});

test('the + modal enables a subset at once', async () => {
  const { calls, store } = performanceServer({
    subsets: [subset(1, { enabled_for_performance: false }), subset(2)],
  });
  renderApp(page);
  const section = await region();
  await within(section).findAllByTestId('subset-performance-card');
  expect(cardNames(section)).toEqual(['subset-02']);
  const user = userEvent.setup({ delay: null });
  await user.click(within(section).getByRole('button', { name: 'Enable subsets in performance' }));
  const dialog = await findDialog('Subsets in performance and comparison');
  const toggle = await within(dialog).findByRole('switch', {
    name: 'Show the performance of subset-01',
  });
  expect(toggle.getAttribute('aria-checked')).toBe('false');
  await user.click(toggle);
  await waitFor(() =>
    expect(
      calls.find((call) => call.method === 'PUT' && call.path.endsWith('/performance'))?.body,
    ).toEqual({ request_type: 'enable' }),
  );
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  expect(store.get(subset(1).id)?.enabled_for_performance).toBe(true);
  // The section shows the newly enabled subset.
  await waitFor(() => expect(cardNames(section)).toEqual(['subset-01', 'subset-02']));
});

test('the switch shows loading while the toggle saves', async () => {
  let release: () => void = () => undefined;
  const item = subset(1, { enabled_for_performance: false });
  performanceServer({
    subsets: [item],
    routes: {
      [`PUT ${base}/subsets/${item.id}/performance`]: async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return { body: { ...item, enabled_for_performance: true } };
      },
    },
  });
  renderApp(page);
  const section = await region();
  await within(section).findByText('No subset performance entries found');
  const user = userEvent.setup({ delay: null });
  await user.click(within(section).getByRole('button', { name: 'Enable subsets in performance' }));
  const dialog = await findDialog('Subsets in performance and comparison');
  const toggle = await within(dialog).findByRole('switch', {
    name: 'Show the performance of subset-01',
  });
  await user.click(toggle);
  await waitFor(() => expect(toggle.className).toContain('ant-switch-loading'));
  release();
  await waitFor(() => expect(toggle.className).not.toContain('ant-switch-loading'));
});

test('without a license the switches and the metric choice are disabled, with the reason', async () => {
  performanceServer({ licensed: false, subsets: [subset(1)] });
  renderApp(page);
  const section = await region();
  const card = (await within(section).findAllByTestId('subset-performance-card'))[0]!;
  const reason = 'A valid license is needed to change which subsets show performance.';
  await waitFor(() =>
    expect(card.querySelector(`[data-disabled-reason="${reason}"]`)).not.toBeNull(),
  );
  const user = userEvent.setup({ delay: null });
  await user.click(within(section).getByRole('button', { name: 'Enable subsets in performance' }));
  const dialog = await findDialog('Subsets in performance and comparison');
  const toggle = await within(dialog).findByRole('switch', {
    name: 'Show the performance of subset-01',
  });
  expect((toggle as HTMLButtonElement).disabled).toBe(true);
  expect(toggle.closest(`[data-disabled-reason="${reason}"]`)).not.toBeNull();
});

test('choosing a subset metric sends it', async () => {
  const item = subset(1);
  const { calls } = performanceServer({ subsets: [item] });
  renderApp(page);
  const section = await region();
  const card = (await within(section).findAllByTestId('subset-performance-card'))[0]!;
  const user = userEvent.setup({ delay: null });
  await user.click(within(card).getByRole('combobox', { name: 'Metric of subset-01' }));
  await user.click(await screen.findByTitle('Macro recall'));
  await waitFor(() =>
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({
      metric_name: 'macro_recall',
    }),
  );
});

test('a failed load says "Subset performance failed to load."', async () => {
  performanceServer({
    routes: {
      [`GET ${perf}/subsets`]: () => ({
        status: 500,
        body: { description: 'Boom.', retriable: false },
      }),
    },
  });
  renderApp(page);
  expect(
    await within(await region()).findByText('Subset performance failed to load.'),
  ).toBeTruthy();
});

test('cards count their items ("1 item"), list other metrics one a line and share the row', async () => {
  performanceServer({
    subsets: [subset(1, { name: 'one', num_items: 1 }), subset(2, { name: 'two' })],
  });
  renderApp(page);
  const section = await region();
  const [one, two] = await within(section).findAllByTestId('subset-performance-card');
  expect(within(one!).getByText('1 item')).toBeTruthy();
  expect(within(two!).getByText('12 items')).toBeTruthy();
  expect(section.textContent).not.toMatch(/\b1 items\b/);

  const list = within(one!).getByLabelText('Other metrics of one');
  const pairs = [...list.querySelectorAll('dt')].map((term) => [
    term.textContent,
    term.nextElementSibling?.textContent,
  ]);
  expect(pairs).toEqual([
    ['Macro precision', '40.00%'],
    ['Macro recall', '30.00%'],
    ['Macro F1', '35.00%'],
  ]);
  // Two cards fill the row half and half on wide screens.
  expect(one!.closest('.ant-col')?.className).toContain('ant-col-xl-12');
});
