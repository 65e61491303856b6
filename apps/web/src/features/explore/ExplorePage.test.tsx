// The Explore page as a user meets it: the grid and its test event, selection, sort, filter,
// colour, data level, opening an item, empty states and failures.
import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { api, explorePath, exploreServer } from './testData';

const cards = () => screen.getAllByTestId('item-card');
const itemRowsCalls = (calls: { method: string; path: string; body: unknown }[]) =>
  calls
    .filter((call) => call.path === `${api}/item_rows`)
    .map((call) => call.body as Record<string, unknown>);

async function gridWith(count: number) {
  await waitFor(
    () => {
      const grid = screen.getByTestId('explore-grid');
      expect(grid.getAttribute('data-rendered-cards')).toBe(String(count));
    },
    { timeout: 15_000 },
  );
}

test('the grid shows a card per item with label and split, and announces what it drew', async () => {
  const { calls } = exploreServer();
  renderApp(explorePath);
  await gridWith(12);
  expect(cards()).toHaveLength(12);
  const first = cards()[0]!;
  expect(first.getAttribute('data-item-id')).toBe('img-0');
  expect(within(first).getByTestId('card-value-label').textContent).toBe('Label:person');
  expect(within(first).getByTestId('card-value-split').textContent).toBe('Split:train');
  fireEvent.load(within(first).getByRole('img', { name: 'img-0' }));
  expect(within(first).getAllByTestId('card-box')).toHaveLength(1);
  expect(within(first).queryAllByTestId('card-mask')).toHaveLength(0);
  // A COCO RLE mask is drawn as pixel runs in image coordinates over the second card.
  const second = cards()[1]!;
  fireEvent.load(within(second).getByRole('img', { name: 'img-1' }));
  expect(within(second).getAllByTestId('card-box')).toHaveLength(2);
  expect(within(second).getByTestId('card-mask').getAttribute('d')).toBe('M10 20h1v30h-1z');
  expect(screen.getByTestId('items-count').textContent).toBe('12 items');
  expect(window.__loupeTestEvents).toContainEqual({ type: 'grid:rendered', cards: 12, total: 12 });
  // Rows are fetched once; items in one batch by row index with the rows' version.
  expect(itemRowsCalls(calls)).toHaveLength(1);
  const items = calls.filter((call) => call.path === `${api}/items`);
  expect(items).toHaveLength(1);
  expect(items[0]!.body).toMatchObject({
    data_level: 'image',
    version: 7,
    rows: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11],
  });
});

test('a click selects, Shift+click selects the range, and changing the data level clears it', async () => {
  exploreServer();
  const view = renderApp(explorePath);
  await gridWith(12);
  fireEvent.click(cards()[2]!);
  fireEvent.click(cards()[5]!, { shiftKey: true });
  expect(screen.getByTestId('selection-counter').textContent).toContain('4 selected');
  expect(
    cards()
      .filter((card) => card.getAttribute('aria-selected') === 'true')
      .map((card) => card.dataset.itemId),
  ).toEqual(['img-2', 'img-3', 'img-4', 'img-5']);
  fireEvent.click(cards()[3]!);
  expect(screen.getByTestId('selection-counter').textContent).toContain('3 selected');
  fireEvent.click(screen.getByRole('button', { name: 'Clear selection' }));
  expect(screen.queryByTestId('selection-counter')).toBeNull();

  fireEvent.click(cards()[0]!);
  expect(screen.getByTestId('selection-counter')).toBeTruthy();
  fireEvent.click(screen.getByText('Object'));
  await waitFor(() => expect(view.location()).toContain('level=image_object'));
  await waitFor(() => expect(cards()[0]!.getAttribute('data-item-id')).toBe('img-0#0'));
  expect(screen.queryByTestId('selection-counter')).toBeNull();
});

test('the data level selector names the levels Sample and Object', async () => {
  exploreServer();
  renderApp(explorePath);
  const selector = await screen
    .findByRole('radiogroup', { name: 'Data level' })
    .catch(() => screen.findByLabelText('Data level'));
  expect(selector.textContent).toBe('SampleObject');
});

async function chooseOption(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const option = await waitFor(
    () => {
      const found = document.querySelector<HTMLElement>(
        `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`,
      );
      if (!found) throw new Error(`No option ${title}`);
      return found;
    },
    { timeout: 15_000 },
  );
  fireEvent.click(option);
}

function openOptions(title: string) {
  return document.querySelector<HTMLElement>(
    `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`,
  );
}

test(
  'Sort by sets an ascending sort, the same property clears it; pending properties are disabled',
  { timeout: 120_000 },
  async () => {
    const { calls } = exploreServer();
    const view = renderApp(explorePath);
    await gridWith(12);
    fireEvent.click(screen.getByRole('button', { name: /Sort/ }));
    const sortBy = await screen.findByRole('combobox', { name: 'Sort by' });
    fireEvent.mouseDown(sortBy);
    await waitFor(() => expect(openOptions('Recomputing')).toBeTruthy(), { timeout: 15_000 });
    expect(openOptions('Recomputing')!.getAttribute('aria-disabled')).toBe('true');
    await chooseOption(sortBy, 'Width');
    await waitFor(() =>
      expect(itemRowsCalls(calls).at(-1)?.sort).toEqual([
        { name: 'width', direction: 'ascending' },
      ]),
    );
    expect(view.location()).toContain('sort=');
    // The editor lists the sort; added sorts default to descending.
    fireEvent.click(screen.getByRole('button', { name: /Add sort$/ }));
    await waitFor(() => expect(screen.getAllByTestId('sort-entry')).toHaveLength(2));
    await waitFor(() =>
      expect(itemRowsCalls(calls).at(-1)?.sort).toEqual([
        { name: 'width', direction: 'ascending' },
        { name: 'label', direction: 'descending' },
      ]),
    );
    fireEvent.click(screen.getAllByRole('button', { name: 'Remove sort' })[1]!);
    await waitFor(() => expect(screen.getAllByTestId('sort-entry')).toHaveLength(1));
    await chooseOption(screen.getByRole('combobox', { name: 'Sort by' }), 'Width');
    await waitFor(() => expect(view.location()).not.toContain('sort='));
    // The URL changes first; the editor drops the entry on the render that follows.
    await waitFor(() => expect(screen.queryAllByTestId('sort-entry')).toHaveLength(0));
  },
);

test(
  'a numeric filter shows bounds rounded outward, refuses values outside them, and applies',
  { timeout: 120_000 },
  async () => {
    const { calls } = exploreServer();
    renderApp(explorePath);
    await gridWith(12);
    fireEvent.click(screen.getByRole('button', { name: /Filter$/ }));
    const search = await screen.findByRole('combobox', { name: 'Search properties' });
    const user = userEvent.setup();
    await user.type(search, 'zzz');
    await screen.findByText('No match found');
    await user.clear(search);
    await chooseOption(search, 'Width');
    const from = await screen.findByRole('spinbutton', { name: 'Width From' });
    const to = screen.getByRole('spinbutton', { name: 'Width To' });
    expect((from as HTMLInputElement).value).toBe('10.12');
    expect((to as HTMLInputElement).value).toBe('120.46');
    const apply = () => screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
    await user.clear(from);
    await user.type(from, '5');
    await screen.findByText('From must be at least 10.12 and at most To.');
    expect(apply().disabled).toBe(true);
    await user.clear(from);
    await user.type(from, '50');
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull());
    expect(apply().disabled).toBe(false);
    await user.click(apply());
    await waitFor(() =>
      expect(itemRowsCalls(calls).at(-1)?.filter).toEqual({
        type: 'and',
        children: [{ type: 'numeric', metadata_id: 'width', op: 'between', value: [50, 120.46] }],
      }),
    );
    await waitFor(() => expect(screen.queryByTestId('filter-popover')).toBeNull());
    // Widths are 10.123 + 10 i: from 50 keeps i = 4 … 11.
    await waitFor(() =>
      expect(screen.getByTestId('items-count').textContent).toBe('8 of 12 items'),
    );
    await gridWith(8);
    expect(
      screen.getByRole('button', { name: /Filter$/ }).closest('.ant-badge')?.textContent,
    ).toContain('1');
  },
);

test('history records of deletions and of another level cannot be filtered by, and say why', async () => {
  exploreServer();
  renderApp(explorePath);
  await gridWith(12);
  fireEvent.click(screen.getByRole('button', { name: /Filter$/ }));
  const apply = (await screen.findByRole('button', { name: 'Apply' })) as HTMLButtonElement;
  const clear = screen.getByRole('button', { name: 'Clear' }) as HTMLButtonElement;
  expect(apply.disabled).toBe(true);
  expect(clear.disabled).toBe(true);
  fireEvent.mouseDown(screen.getByRole('combobox', { name: 'History record' }));
  const options = await screen.findAllByTestId('history-option');
  expect(options.map((option) => option.textContent)).toEqual([
    expect.stringMatching(/^uploaded items · 12 · .* · Ana$/),
    expect.stringMatching(
      /deleted samples.*Cannot filter by this action - items have been deleted$/,
    ),
    expect.stringMatching(
      /changed object label.*Cannot filter by this action - it was performed on object data level$/,
    ),
  ]);
  const disabled = options.map((option) =>
    option.closest('.ant-select-item')?.getAttribute('aria-disabled'),
  );
  expect(disabled).toEqual(['false', 'true', 'true']);
});

test('colouring: strings without allowed values are disabled; numbers get a 200-step legend', async () => {
  exploreServer();
  renderApp(explorePath);
  await gridWith(12);
  const colorBy = screen.getByRole('combobox', { name: 'Color by' });
  fireEvent.mouseDown(colorBy);
  const note = await waitFor(() => {
    const found = openOptions('Cannot color due to too many unique categorical values');
    if (!found) throw new Error('no disabled Note option');
    return found;
  });
  expect(note.textContent).toContain('Note');
  expect(note.getAttribute('aria-disabled')).toBe('true');
  await chooseOption(colorBy, 'Width');
  const legend = await screen.findByTestId('color-legend');
  expect(within(legend).getByTestId('legend-scale').dataset.steps).toBe('200');
  await waitFor(() => expect(cards()[0]!.dataset.color).toBe('rgb(68, 1, 84)'));
  await chooseOption(colorBy, 'Label');
  await waitFor(() =>
    expect(screen.getAllByTestId('legend-category').map((c) => c.textContent)).toEqual([
      'car',
      'person',
    ]),
  );
  // Labels take the dataset's class colours.
  expect(cards()[0]!.dataset.color).toBe('#fa541c');
});

test('double-click opens the item with its id in the URL; moving in the viewer follows', async () => {
  exploreServer();
  const view = renderApp(explorePath);
  await gridWith(12);
  fireEvent.doubleClick(cards()[3]!);
  await waitFor(() => expect(view.location()).toContain('item=img-3'));
  await screen.findByText('4/12');
  fireEvent.keyDown(window, { key: 'ArrowRight' });
  await waitFor(() => expect(view.location()).toContain('item=img-4'));
});

test('a link with ?item= opens that item at its place in the result', async () => {
  const { calls } = exploreServer();
  renderApp(`${explorePath}?item=img-4`);
  await screen.findByText('5/12');
  expect(
    calls.find(
      (call) => call.path === `${api}/items` && (call.body as { item_ids?: string[] }).item_ids,
    )?.body,
  ).toMatchObject({ item_ids: ['img-4'] });
});

test('Enter on a focused card opens it', async () => {
  exploreServer();
  const view = renderApp(explorePath);
  await gridWith(12);
  cards()[1]!.focus();
  fireEvent.keyDown(cards()[1]!, { key: 'Enter' });
  await waitFor(() => expect(view.location()).toContain('item=img-1'));
});

test('empty states: a filter that hides everything offers Clear filters; an empty dataset says so', async () => {
  exploreServer();
  const filter = encodeURIComponent(
    JSON.stringify({
      type: 'and',
      children: [{ type: 'numeric', metadata_id: 'width', op: 'between', value: [500, 600] }],
    }),
  );
  const view = renderApp(`${explorePath}?filter=${filter}`);
  await screen.findByText('No results match');
  fireEvent.click(screen.getByRole('button', { name: 'Clear filters' }));
  await gridWith(12);
  expect(view.location()).not.toContain('filter=');
  view.unmount();

  exploreServer({ count: 0 });
  renderApp(explorePath);
  await screen.findByText("You don't have any items uploaded");
  expect(screen.getByText("When you do you'll see them here.")).toBeTruthy();
});

test('failures: an unknown dataset offers the way home; a failing query says the grid failed', async () => {
  exploreServer({
    routes: {
      [`GET ${api}`]: () => ({
        status: 404,
        body: { description: 'Dataset not found.', retriable: false },
      }),
    },
  });
  const view = renderApp(explorePath);
  await screen.findByText('Dataset not found');
  expect(screen.getByRole('link', { name: /Go to home/ })).toBeTruthy();
  view.unmount();

  exploreServer({
    routes: {
      [`POST ${api}/item_rows`]: () => ({
        status: 400,
        body: { description: 'filter: bad', retriable: false },
      }),
    },
  });
  renderApp(explorePath);
  await screen.findByText('Grid failed to load');
});

test('while the dataset loads the page says so', async () => {
  exploreServer({ routes: { [`GET ${api}`]: () => new Promise(() => undefined) } });
  renderApp(explorePath);
  await screen.findByText('Loading dataset');
});
