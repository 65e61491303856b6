// The model metadata page as a user meets it: fields of a data level with the model's own, each
// opening the model's explorer coloured and sorted by it; a field being recomputed is not a link,
// shows it is loading and is asked again until available; objects have their own level.
import '../../../test/setup';
import type { MetadataFieldInfo } from '@loupe/contracts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import type { Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import { DATASET_ID, MODEL_ID, modelDataset, modelOf, modelPagesServer } from '../testData';

const pagePath = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/metadata`;
const infoPath = `/api/datasets/${DATASET_ID}/metadata_info`;

const dataset = modelDataset({
  name: 'Streets',
  task_type: 'object_detection',
  samples_count: 10,
  class_names: ['car'],
  classes_count: 1,
  objects_count: 30,
});
const model = modelOf(dataset, 'YOLO');

const field = (
  id: string,
  label: string,
  change: Partial<MetadataFieldInfo> = {},
): MetadataFieldInfo => ({
  id,
  name: id,
  label,
  description: '',
  group: 'Prediction',
  source: 'prediction',
  state: 'available',
  type: 'numeric',
  ...change,
});

function instance(routes: Record<string, Handler> = {}) {
  return modelPagesServer({ dataset, model }, routes);
}

test('a field opens the model explorer coloured and sorted by it', async () => {
  instance({
    [`GET ${infoPath}`]: () => ({
      body: { metadata_config: [field('prediction.tp', 'True positives')] },
    }),
  });
  const view = renderApp(pagePath);
  fireEvent.click(await screen.findByRole('link', { name: 'True positives' }));
  await waitFor(() => expect(view.router.state.location.pathname).toContain('/explore'));
  const { pathname, search } = view.router.state.location;
  expect(pathname).toBe(`/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/explore`);
  const params = new URLSearchParams(search);
  expect(params.get('level')).toBe('image');
  expect(params.get('color')).toBe('prediction.tp');
  expect(JSON.parse(params.get('sort')!)).toEqual([
    { name: 'prediction.tp', direction: 'descending' },
  ]);
});

test('a pending field is not clickable, shows loading, and is asked again until available', async () => {
  let answers = 0;
  const { calls } = instance({
    [`GET ${infoPath}`]: () => {
      answers += 1;
      const state = answers < 2 ? 'pending' : 'available';
      return { body: { metadata_config: [field('image.brightness', 'Brightness', { state })] } };
    },
  });
  renderApp(pagePath);
  const pending = await screen.findByTestId('metadata-pending');
  expect(pending.getAttribute('aria-disabled')).toBe('true');
  expect(pending.querySelector('.ant-spin')).toBeTruthy();
  expect(screen.queryByRole('link', { name: 'Brightness' })).toBeNull();
  await screen.findByRole('link', { name: 'Brightness' }, { timeout: 6000 });
  expect(calls.filter((call) => call.path === infoPath).length).toBeGreaterThanOrEqual(2);
});

test('objects have their own level, asked with the model', async () => {
  const { fetchMock } = instance({
    [`GET ${infoPath}`]: () => ({ body: { metadata_config: [field('object.area', 'Area')] } }),
  });
  const view = renderApp(pagePath);
  await screen.findByRole('link', { name: 'Area' });
  const asked = () =>
    fetchMock.mock.calls
      .map(([input]) => new URL(String(input), 'http://loupe.test'))
      .filter((url) => url.pathname === infoPath)
      .map((url) => [url.searchParams.get('data_level'), url.searchParams.get('predictions_id')]);
  expect(asked()).toEqual([['image', MODEL_ID]]);
  fireEvent.click(screen.getByText('Objects'));
  await waitFor(() => expect(asked()).toContainEqual(['image_object', MODEL_ID]));
  fireEvent.click(await screen.findByRole('link', { name: 'Area' }));
  await waitFor(() =>
    expect(new URLSearchParams(view.router.state.location.search).get('level')).toBe(
      'image_object',
    ),
  );
});

test('a failed load shows "Model metadata failed to load"', async () => {
  instance({
    [`GET ${infoPath}`]: () => ({
      status: 424,
      body: { description: 'The item table is unavailable.', retriable: false },
    }),
  });
  renderApp(pagePath);
  await screen.findByText('Model metadata failed to load', {}, { timeout: 8000 });
});
