// The model features page as a user meets it: the model's features, the dataset's and the
// attributions; deleting an attribution after confirming, which reads them all again; the
// license gate; speech models without attributions; and the failure text.
import '../../../test/setup';
import type {
  AttributionOverview,
  Dataset,
  FeatureInfo,
  PredictionFeaturesResponse,
} from '@loupe/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import { DATASET_ID, MODEL_ID, modelDataset, modelOf, modelPagesServer } from '../testData';

const pagePath = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/features`;
const base = `/api/datasets/${DATASET_ID}/predictions/${MODEL_ID}`;

const feature = (name: string, size: number, present: number): FeatureInfo => ({
  id: `image:${name}`,
  name,
  type: 'float32',
  group: 'Uploaded',
  data_level: 'image',
  num_present: present,
  num_missing: 40 - present,
  size,
  associated_features: [],
});

const attribution = (
  name: string,
  present: number,
  associated: string[] = [],
): AttributionOverview => ({
  id: `image:${name}`,
  name,
  associated_features: associated,
  data_level: 'image',
  num_present: present,
  num_missing: 40 - present,
});

function instance(
  routes: Record<string, Handler> = {},
  { data = modelDataset(), licensed = true }: { data?: Dataset; licensed?: boolean } = {},
) {
  let attributions = [
    attribution('gradcam', 30, ['penultimate', 'logits']),
    attribution('saliency', 12),
  ];
  const features: PredictionFeaturesResponse = {
    dataset_features: [feature('clip', 512, 40)],
    predictions_features: [feature('penultimate', 2048, 38)],
  };
  const model = modelOf(data, 'ResNet 50');
  return modelPagesServer(
    { dataset: data, model, licensed },
    {
      [`GET ${base}/features`]: () => ({ body: features }),
      [`GET ${base}/attributions/overview`]: () => ({
        body: { attribution_overviews: attributions },
      }),
      [`DELETE ${base}/attributions`]: (call) => {
        const { name } = call.body as { name: string };
        attributions = attributions.filter((a) => a.name !== name);
        return { body: { deleted: 30 } };
      },
      ...routes,
    },
  );
}

const rowsOf = (testId: string) =>
  [...screen.getByTestId(testId).querySelectorAll('tbody tr')].map((row) =>
    [...row.querySelectorAll('td')].map((cell) => cell.textContent),
  );

test("the page lists the model's features, the dataset's and the attributions", async () => {
  instance();
  renderApp(pagePath);
  await screen.findByTestId('attributions-table');
  expect(document.querySelector('.ant-breadcrumb')?.textContent).toBe(
    'Models/Pets/ResNet 50/Features',
  );
  expect(screen.getByRole('heading', { name: 'Model Features' })).toBeTruthy();
  expect(rowsOf('model-features-table')[0]).toEqual([
    'penultimate',
    'float32',
    'Uploaded',
    'image',
    '38',
    '2',
    '2,048',
  ]);
  expect(rowsOf('dataset-features-table')[0]![0]).toBe('clip');
  // Each attribution names its associated features, the model's own vectors of its images.
  expect(rowsOf('attributions-table').map((row) => row.slice(0, 5))).toEqual([
    ['gradcam', 'penultimatelogits', 'image', '30', '10'],
    ['saliency', 'None', 'image', '12', '28'],
  ]);
  const tags = screen.getByTestId('attributions-table').querySelectorAll('.ant-tag');
  expect([...tags].map((tag) => tag.textContent)).toEqual(['penultimate', 'logits']);
});

test('deleting an attribution asks first, then reads the attributions and features again', async () => {
  const { calls } = instance();
  renderApp(pagePath);
  const table = await screen.findByTestId('attributions-table');
  const featureReads = () => calls.filter((call) => call.path === `${base}/features`).length;
  const before = featureReads();
  fireEvent.click(within(table).getByRole('button', { name: 'Delete gradcam' }));
  const confirm = await screen.findByText('Delete attribution "gradcam"?');
  expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
  const popover = confirm.closest('.ant-popover') as HTMLElement;
  fireEvent.click(within(popover).getByRole('button', { name: 'Delete' }));
  await screen.findByText('Attribution "gradcam" deleted');
  expect(calls.find((call) => call.method === 'DELETE')?.body).toEqual({ name: 'gradcam' });
  await waitFor(() =>
    expect(rowsOf('attributions-table').map((row) => row[0])).toEqual(['saliency']),
  );
  expect(featureReads()).toBeGreaterThan(before);
});

test('without a license the delete action is disabled and says why', async () => {
  instance({}, { licensed: false });
  renderApp(pagePath);
  const table = await screen.findByTestId('attributions-table');
  const button = within(table).getByRole('button', { name: 'Delete gradcam' });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(true));
  expect(button.closest('[data-disabled-reason]')?.getAttribute('data-disabled-reason')).toBe(
    'A valid license is needed to delete attributions.',
  );
});

test('a speech model has no attributions table; empty tables say so', async () => {
  const { calls } = instance(
    {
      [`GET ${base}/features`]: () => ({
        body: { dataset_features: [], predictions_features: [] },
      }),
    },
    { data: modelDataset({ task_type: 'automatic_speech_recognition', class_names: [] }) },
  );
  renderApp(pagePath);
  await screen.findByText('No model features');
  expect(screen.getByText('No dataset features')).toBeTruthy();
  expect(screen.queryByTestId('attributions-table')).toBeNull();
  expect(calls.some((call) => call.path.endsWith('/attributions/overview'))).toBe(false);
});

test('a failed load shows "Model features failed to load"', async () => {
  instance({
    [`GET ${base}/attributions/overview`]: () => ({
      status: 424,
      body: { description: 'The database is unavailable.', retriable: true },
    }),
  });
  renderApp(pagePath);
  await screen.findByText('Model features failed to load', {}, { timeout: 8000 });
});
