// The comparison page as a signed-in user meets it, through the real route table and a fake API:
// choosing model B, the polled comparison, Overall, the per-class breakdown and its disabled
// variant, the per-item sections with their subcategories, distributions and explore links.
import '../../../test/setup';
import type { ComparisonRequest } from '@loupe/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test, vi } from 'vitest';
import { renderApp } from '../../../test/renderApp';
import {
  accuracyComparison,
  base,
  classificationComparison,
  comparePage,
  comparisonServer,
  computingComparison,
  DATASET_ID,
  detectionComparison,
  MODEL_A,
  MODEL_B,
  MODEL_C,
  regressionComparison,
} from './testData';

vi.mock('../performance/charts/EChart', () => import('../performance/charts/FakeEChart'));

const region = (name: string) => screen.findByRole('region', { name });
const user = () => userEvent.setup({ delay: null });
const hrefOf = (link: HTMLElement) => new URL(link.getAttribute('href')!, 'http://loupe.test');
const compareBodies = (calls: { method: string; path: string; body: unknown }[]) =>
  calls
    .filter((call) => call.method === 'POST' && call.path === `${base}/comparison`)
    .map((call) => call.body as ComparisonRequest);

test('without model B: a picker of the other models, and the controls disabled', async () => {
  const { calls } = comparisonServer();
  const app = renderApp(comparePage());
  const picker = await screen.findByTestId('model-picker');
  expect(within(picker).getAllByText('Choose a model to compare with').length).toBeGreaterThan(0);
  expect(
    screen.getByRole('combobox', { name: 'Split' }).closest('.ant-select-disabled'),
  ).toBeTruthy();
  expect(
    screen.getByRole('combobox', { name: 'Metric' }).closest('.ant-select-disabled'),
  ).toBeTruthy();
  expect(compareBodies(calls)).toEqual([]);

  await user().click(
    within(picker).getByRole('combobox', { name: 'Choose a model to compare with' }),
  );
  // Model A itself is not offered.
  expect(screen.queryByTitle('resnet-50')).toBeNull();
  await user().click(await screen.findByTitle('ViT-Base'));
  await waitFor(() => expect(app.location()).toBe(comparePage(MODEL_B)));
  expect(await screen.findByTestId('overall-headline')).toBeTruthy();
});

test('the Compare menu lists the other models, searched by name whatever the case', async () => {
  comparisonServer();
  const app = renderApp(comparePage(MODEL_B));
  // The button is enabled once the license is known, and names model B once the models are.
  const menuButton = await waitFor(() => {
    const button = screen.getByRole('button', { name: 'Compare with' });
    expect(button.textContent).toContain('ViT-Base');
    expect((button as HTMLButtonElement).disabled).toBe(false);
    return button;
  });
  await user().click(menuButton);
  const search = await screen.findByRole('searchbox', { name: 'Search models' });
  const menu = screen.getByRole('menu', { name: 'Compare with' });
  expect(
    within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent),
  ).toEqual(['ViT-Base', 'efficientnet']);
  await user().type(search, 'EFFICIENT');
  await waitFor(() =>
    expect(
      within(screen.getByRole('menu', { name: 'Compare with' }))
        .getAllByRole('menuitem')
        .map((i) => i.textContent),
    ).toEqual(['efficientnet']),
  );
  await user().clear(search);
  await user().type(search, 'nothing');
  expect(await screen.findByText('No models matching "nothing" found')).toBeTruthy();
  await user().clear(search);
  await user().type(search, 'Eff');
  await user().click(
    within(screen.getByRole('menu', { name: 'Compare with' })).getByText('efficientnet'),
  );
  await waitFor(() => expect(app.location()).toBe(comparePage(MODEL_C)));
});

test('without a license the Compare menu and the picker are disabled and say why', async () => {
  comparisonServer({ licensed: false });
  renderApp(comparePage());
  const picker = await screen.findByTestId('model-picker');
  await waitFor(() =>
    expect(
      within(picker)
        .getByRole('combobox', { name: 'Choose a model to compare with' })
        .closest('.ant-select-disabled'),
    ).toBeTruthy(),
  );
  const reasons = [...document.querySelectorAll('[data-disabled-reason]')].map((node) =>
    node.getAttribute('data-disabled-reason'),
  );
  expect(reasons).toEqual([
    'A valid license is needed to compare models.',
    'A valid license is needed to compare models.',
  ]);
  expect((screen.getByRole('button', { name: 'Compare with' }) as HTMLButtonElement).disabled).toBe(
    true,
  );
});

test('an unknown model B is named; A with itself is refused', async () => {
  comparisonServer();
  const first = renderApp(comparePage('0000-missing'));
  expect(
    await screen.findByText('Model with the identifier "0000-missing" was not found'),
  ).toBeTruthy();
  expect(screen.getByTestId('model-picker')).toBeTruthy();
  first.unmount();
  renderApp(comparePage(MODEL_A));
  expect(await screen.findByText('Model A and model B must be two different models.')).toBeTruthy();
});

test('while computing, a banner shows progress; the page is asked again until ready', async () => {
  let asked = 0;
  const { calls } = comparisonServer({
    compare: () => {
      asked += 1;
      return { body: asked === 1 ? computingComparison(0.4) : classificationComparison() };
    },
  });
  renderApp(comparePage(MODEL_B));
  expect(
    await screen.findByText(
      'The comparison of the two models is being computed. This page updates by itself when it is ready.',
    ),
  ).toBeTruthy();
  expect(screen.getByLabelText('40% done')).toBeTruthy();
  expect(await screen.findByTestId('overall-headline', {}, { timeout: 6000 })).toBeTruthy();
  expect(screen.queryByTestId('comparison-computing')).toBeNull();
  expect(asked).toBe(2);
  expect(compareBodies(calls)[0]).toEqual({
    predictions_id_a: MODEL_A,
    predictions_id_b: MODEL_B,
    split: 'all',
    metric: 'accuracy',
  });
});

test('a failed job shows an error alert; a failed load the fallback', async () => {
  const failed = comparisonServer({
    compare: () => ({
      body: { ...computingComparison(1), status: 'failed', error: 'Out of memory' },
    }),
  });
  const first = renderApp(comparePage(MODEL_B));
  expect(await screen.findByText('Computing the comparison failed.')).toBeTruthy();
  expect(screen.getByText('Out of memory')).toBeTruthy();
  expect(failed.calls.length).toBeGreaterThan(0);
  first.unmount();
  comparisonServer({
    compare: () => ({ status: 500, body: { description: 'Database down', retriable: false } }),
  });
  renderApp(comparePage(MODEL_B));
  expect(
    await screen.findByText('Unable to load model comparison', {}, { timeout: 8000 }),
  ).toBeTruthy();
  expect(screen.getByRole('button', { name: /Download error report/i })).toBeTruthy();
  expect(screen.getByRole('link', { name: /Go to home/i })).toBeTruthy();
}, 15000);

test('overall: the better model, the signed relative delta and both scores', async () => {
  comparisonServer();
  renderApp(comparePage(MODEL_B));
  const overall = await region('Overall');
  expect(within(overall).getByTestId('overall-headline').textContent).toBe('Model B is better');
  expect(within(overall).getByTestId('overall-delta').textContent).toContain('+5.00% ↑');
  expect(within(overall).getByTestId('overall-score-model_a').textContent).toContain('80.00%');
  expect(within(overall).getByTestId('overall-score-model_b').textContent).toContain('84.00%');
  expect(within(overall).getByTestId('overall-score-model_b').textContent).toContain('ViT-Base');
});

test('the guide toggles, and stays as left', async () => {
  comparisonServer();
  const first = renderApp(comparePage(MODEL_B));
  expect(await screen.findByTestId('comparison-guide')).toBeTruthy();
  await user().click(screen.getByRole('button', { name: /Hide guide/ }));
  expect(screen.queryByTestId('comparison-guide')).toBeNull();
  first.unmount();
  renderApp(comparePage(MODEL_B));
  expect(await screen.findByRole('button', { name: /Show guide/ })).toBeTruthy();
  expect(screen.queryByTestId('comparison-guide')).toBeNull();
});

test('per class: summary, four segments as wide as their share, lists sorted, B collapsed', async () => {
  comparisonServer();
  renderApp(comparePage(MODEL_B));
  const section = await region('Per class breakdown');
  expect(
    within(section).getByText('For each class, see which model performs better and by how much'),
  ).toBeTruthy();
  expect(within(section).getByTestId('breakdown-summary').textContent).toBe(
    'Model A is better on 2 items, Model B is better on 7 items',
  );
  const tabs = within(
    within(section).getByRole('tablist', { name: 'Per class breakdown' }),
  ).getAllByRole('tab');
  expect(tabs.map((tab) => [tab.textContent, tab.getAttribute('data-width')])).toEqual([
    ['2 classes', '18.18%'],
    ['1 class', '9.09%'],
    ['1 class', '9.09%'],
    ['7 classes', '63.64%'],
  ]);
  expect(tabs.map((tab) => tab.style.width)).toEqual([
    `${(2 / 11) * 100}%`,
    `${(1 / 11) * 100}%`,
    `${(1 / 11) * 100}%`,
    `${(7 / 11) * 100}%`,
  ]);
  // A's list is open; B's starts collapsed and opens from its segment.
  expect(within(section).getByTestId('entity-list-model_a_is_better')).toBeTruthy();
  expect(within(section).queryByTestId('entity-list-model_b_is_better')).toBeNull();
  await user().click(tabs[3]!);
  const bList = await within(section).findByTestId('entity-list-model_b_is_better');
  expect(tabs[3]!.getAttribute('aria-selected')).toBe('true');
  const names = () =>
    within(bList)
      .getAllByRole('listitem')
      .map((row) => row.firstElementChild!.textContent);
  expect(names()).toEqual(['fish', 'mouse', 'snake', 'horse', 'lizard']);
  // Bars: fish's +0.6 is the largest |delta| of all categories, the full bar.
  const bars = within(bList).getAllByTestId('entity-bar');
  expect(bars[0]!.style.width).toBe('100%');
  expect(parseFloat(bars[1]!.style.width)).toBeCloseTo((0.35 / 0.6) * 100, 3);
  const aBars = within(within(section).getByTestId('entity-list-model_a_is_better')).getAllByTestId(
    'entity-bar',
  );
  expect(parseFloat(aBars[0]!.style.width)).toBeCloseTo((0.4 / 0.6) * 100, 3);
  expect(within(bList).getAllByRole('listitem')[0]!.textContent).toContain('+60.00%');

  await user().click(within(bList).getByRole('button', { name: 'Show 2 more' }));
  expect(names()).toEqual(['fish', 'mouse', 'snake', 'horse', 'lizard', 'bird', 'rabbit']);
  await user().click(within(bList).getByRole('button', { name: 'Show 2 less' }));
  expect(names()).toHaveLength(5);
});

test('a class opens "View objects" with both models’ explore links', async () => {
  comparisonServer();
  renderApp(comparePage(MODEL_B));
  const section = await region('Per class breakdown');
  await user().click(within(section).getByRole('button', { name: 'cat' }));
  const popover = (await screen.findByText('View objects')).closest<HTMLElement>('.ant-popover')!;
  const toA = hrefOf(within(popover).getByRole('link', { name: /Explore items for Model A/ }));
  const toB = hrefOf(within(popover).getByRole('link', { name: /Explore items for Model B/ }));
  expect(toA.pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/explore`);
  expect(toB.pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_B}/explore`);
  expect(JSON.parse(toB.searchParams.get('filter')!)).toEqual({
    type: 'or',
    children: [
      { type: 'string', metadata_id: 'label', op: 'in', value: ['cat'] },
      { type: 'string', metadata_id: 'prediction.label', op: 'in', value: ['cat'] },
    ],
  });
  expect(JSON.parse(toB.searchParams.get('compare')!)).toEqual({
    predictions_id_a: MODEL_A,
    predictions_id_b: MODEL_B,
    split: 'all',
    metric: 'macro_f1_score',
    regression_value_name: null,
  });
});

test('changing the metric reloads; Accuracy shows the disabled per-class variant', async () => {
  const { calls } = comparisonServer({
    compare: (call) => ({
      body:
        (call.body as ComparisonRequest).metric === 'macro_f1_score'
          ? classificationComparison()
          : accuracyComparison(),
    }),
  });
  renderApp(comparePage(MODEL_B));
  expect(
    await screen.findByText('Per-class breakdown is not available for "Accuracy"'),
  ).toBeTruthy();
  expect(screen.getByText("It's available for all other metrics")).toBeTruthy();
  expect(await region('Per class breakdown')).toBeTruthy();
  expect(screen.queryByRole('tablist', { name: 'Per class breakdown' })).toBeNull();

  await user().click(screen.getByRole('combobox', { name: 'Metric' }));
  await user().click(await screen.findByTitle('Macro F1'));
  expect(await screen.findByRole('tablist', { name: 'Per class breakdown' })).toBeTruthy();
  expect(compareBodies(calls).map((body) => body.metric)).toEqual(['accuracy', 'macro_f1_score']);

  await user().click(screen.getByRole('combobox', { name: 'Split' }));
  await user().click(await screen.findByTitle('test'));
  await waitFor(() => expect(compareBodies(calls).at(-1)!.split).toBe('test'));
});

test('per sample: tabs per category with explore links, the distribution opens a bin', async () => {
  comparisonServer();
  const app = renderApp(comparePage(MODEL_B));
  const section = await region('Per sample breakdown');
  const tabs = within(within(section).getByRole('tablist')).getAllByRole('tab');
  expect(tabs.map((tab) => tab.textContent)).toEqual([
    '10 samples',
    '5 samples',
    '60 samples',
    '25 samples',
  ]);
  expect(tabs.map((tab) => tab.getAttribute('data-width'))).toEqual([
    '10.00%',
    '5.00%',
    '60.00%',
    '25.00%',
  ]);
  await user().click(tabs[3]!);
  const panel = within(section).getByRole('tabpanel');
  expect(panel.getAttribute('aria-label')).toBe('Model B is better');
  const link = hrefOf(within(panel).getByRole('link', { name: /Explore items for Model B/ }));
  expect(JSON.parse(link.searchParams.get('filter')!)).toEqual({
    type: 'string',
    metadata_id: 'comparison.category',
    op: 'in',
    value: ['model_b_is_better'],
  });
  expect(within(section).getByTestId('distribution-moments').textContent).toBe(
    'Mean 0.125 · Std 0.25',
  );
  // The third bar (index 2) of the distribution: the bin filter is added to the explorer's.
  const chart = within(section).getByRole('img', { name: 'Per sample breakdown Distribution' });
  await user().click(within(chart).getAllByRole('button')[2]!);
  await waitFor(() => expect(app.location()).toContain('/explore?'));
  const opened = new URL(app.location(), 'http://loupe.test');
  expect(opened.pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/explore`);
  expect(JSON.parse(opened.searchParams.get('filter')!)).toEqual({
    type: 'numeric',
    metadata_id: 'comparison.bin',
    op: 'between',
    value: [2, 2],
  });
  expect(JSON.parse(opened.searchParams.get('compare')!).predictions_id_b).toBe(MODEL_B);
});

test('the help panels explain the plot and show the five-bar legend', async () => {
  comparisonServer();
  renderApp(comparePage(MODEL_B));
  const section = await region('Per sample breakdown');
  await user().click(within(section).getByRole('button', { name: /How to read the plot\?/ }));
  expect(
    await screen.findByText(/the middle bar holds the items where both models are equal/),
  ).toBeTruthy();
  await user().click(
    within(section).getByRole('button', { name: /Where does the model improvement come from\?/ }),
  );
  const legend = await screen.findByRole('list', {
    name: 'Where does the model improvement come from?',
  });
  expect(
    within(legend)
      .getAllByRole('listitem')
      .map((item) => item.textContent),
  ).toEqual([
    'Model A improves on all items',
    'Model A improves on most items',
    'Model A and model B are roughly equal',
    'Model B improves on most items',
    'Model B improves on all items',
  ]);
});

test('other metrics: both values and the deltas', async () => {
  comparisonServer();
  renderApp(comparePage(MODEL_B));
  const table = await screen.findByTestId('other-metrics-table');
  const rows = within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent));
  expect(rows).toEqual([
    ['Accuracy', '0.90', '0.85', '−0.05 (−5.56%) ↓'],
    ['Macro precision', '70.00%', '77.00%', '+7.00% (+10.00%) ↑'],
    ['Macro recall', '75.00%', '75.00%', '0.00% (0.00%)'],
  ]);
});

test('detection: ground-truth and predicted objects with subcategories and their links', async () => {
  comparisonServer({ task: 'object_detection', compare: () => ({ body: detectionComparison() }) });
  renderApp(comparePage(MODEL_B));
  const overall = await region('Overall');
  expect(within(overall).getByTestId('overall-headline').textContent).toBe('Model A is better');
  expect(within(overall).getByTestId('overall-delta').textContent).toContain('−10.00% ↓');

  const gt = await region('Ground-truth objects');
  const gtTabs = within(within(gt).getByRole('tablist')).getAllByRole('tab');
  expect(gtTabs.map((tab) => tab.textContent)).toEqual([
    '12 ground-truth objects',
    '5 ground-truth objects',
    '75 ground-truth objects',
    '8 ground-truth objects',
  ]);
  // A better opens first: its subcategory, found by A only, with its drawing and both links.
  const found = within(gt).getByTestId('subcategory-tp_a_fn_b');
  expect(found.textContent).toContain('12 ground-truth objects · 12.00%');
  expect(within(found).getByTestId('illustration-tp_a_fn_b')).toBeTruthy();
  expect(within(found).getAllByRole('link')).toHaveLength(2);

  const pred = await region('Predicted objects');
  const predTabs = within(within(pred).getByRole('tablist')).getAllByRole('tab');
  // A better: tp_a_fp_b 4 + tp_a_unmatched_b 9 + unmatched_a_fp_b 7.
  expect(predTabs[0]!.textContent).toBe('20 predicted objects');
  const links = (id: string) =>
    within(within(pred).getByTestId(`subcategory-${id}`))
      .getAllByRole('link')
      .map((link) => hrefOf(link));
  const aOnly = links('tp_a_unmatched_b');
  expect(aOnly.map((url) => url.pathname)).toEqual([
    `/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/explore`,
  ]);
  const bOnly = links('unmatched_a_fp_b');
  expect(bOnly.map((url) => url.pathname)).toEqual([
    `/models/datasets/${DATASET_ID}/predictions/${MODEL_B}/explore`,
  ]);
  expect(bOnly[0]!.searchParams.get('level')).toBe('image_object');
  expect(JSON.parse(bOnly[0]!.searchParams.get('filter')!)).toEqual({
    type: 'and',
    children: [
      { type: 'string', metadata_id: 'object.type', op: 'in', value: ['pred'] },
      {
        type: 'string',
        metadata_id: 'comparison.subcategory',
        op: 'in',
        value: ['unmatched_a_fp_b'],
      },
    ],
  });
  expect(links('tp_a_fp_b')).toHaveLength(2);
  // B better: fp_a_unmatched_b opens A's explorer only.
  await user().click(predTabs[3]!);
  expect(links('fp_a_unmatched_b').map((url) => url.pathname)).toEqual([
    `/models/datasets/${DATASET_ID}/predictions/${MODEL_A}/explore`,
  ]);
  expect(links('unmatched_a_tp_b').map((url) => url.pathname)).toEqual([
    `/models/datasets/${DATASET_ID}/predictions/${MODEL_B}/explore`,
  ]);
});

test('regression: three segments, a large description and the value name control', async () => {
  const { calls } = comparisonServer({
    task: 'regression',
    compare: () => ({ body: regressionComparison() }),
  });
  renderApp(comparePage(MODEL_B));
  const overall = await region('Overall');
  expect(within(overall).getByTestId('overall-description').textContent).toBe(
    'Model B’s mean absolute error is lower than Model A’s: 0.5 for Model A, 0.4 for Model B.',
  );
  expect(within(overall).queryByTestId('overall-score-model_a')).toBeNull();
  const section = await region('Per sample breakdown');
  const tabs = within(within(section).getByRole('tablist')).getAllByRole('tab');
  expect(tabs.map((tab) => tab.getAttribute('aria-label'))).toEqual([
    'Model A is better: 30 samples',
    'Both are equal: 10 samples',
    'Model B is better: 60 samples',
  ]);
  expect(tabs.map((tab) => tab.getAttribute('data-width'))).toEqual(['30.00%', '10.00%', '60.00%']);
  expect(screen.queryByRole('region', { name: 'Per class breakdown' })).toBeNull();

  await user().click(screen.getByRole('combobox', { name: 'Value name' }));
  await user().click(await screen.findByTitle('height'));
  await waitFor(() =>
    expect(compareBodies(calls).at(-1)).toEqual({
      predictions_id_a: MODEL_A,
      predictions_id_b: MODEL_B,
      split: 'all',
      metric: 'mean_absolute_error',
      regression_value_name: 'height',
    }),
  );
});
