// The dataset overview as a signed-in user meets it: header, statistics, history and settings.
import '../../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../../test/findDialog';
import { adminUser, appState, fakeServer, type Handler } from '../../../test/fakeServer';
import { renderApp } from '../../../test/renderApp';
import { DATASET_ID, dataset } from '../testData';

const path = `/datasets/${DATASET_ID}`;
const api = `/api${path}`;

function signedIn(routes: Record<string, Handler> = {}) {
  window.localStorage.setItem(
    'loupe.deployment.deployment-1',
    JSON.stringify({ seenOnboarding: true }),
  );
  return fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'k', expiration_ts: 2e9 },
    }),
    'GET /api/datasets': () => ({ body: [dataset()] }),
    [`GET ${api}`]: () => ({ body: dataset() }),
    [`GET ${api}/history`]: () => ({
      body: [
        {
          id: 'h1',
          timestamp: Date.now() - 120_000,
          num_items: 120,
          data_level: 'image',
          operation_type: 'sample:create',
          user_name: 'Ana',
        },
      ],
    }),
    [`GET ${api}/iou_threshold`]: () => ({ body: { iou_threshold: 0.5 } }),
    [`GET ${api}/thumbnails`]: () => ({ body: { enabled: true } }),
    ...routes,
  });
}

test('shows the task, name, previews with classes and objects tiles, statistics and history', async () => {
  signedIn();
  const view = renderApp(path);
  await screen.findByTestId('dataset-name');
  await waitFor(() => expect(view.location()).toBe(`${path}/overview`));
  expect(screen.getByText('Object Detection')).toBeTruthy();
  expect(screen.getByText('Dashcam frames from three cities.')).toBeTruthy();
  expect(screen.getAllByTestId('dataset-preview')).toHaveLength(3);
  expect(screen.getAllByTestId('preview-tile')).toHaveLength(2);
  for (const name of ['Samples: 120', 'Classes: 2', 'Ground-truth objects: 340', 'Predictions: 2'])
    expect(screen.getByLabelText(name)).toBeTruthy();
  // The operation's name, then the count, author and time: never '120 items uploaded items'.
  const record = await screen.findByTestId('history-record');
  expect(within(record).getByText('Uploaded items')).toBeTruthy();
  expect(within(record).getByText(/^120 items · by Ana · /)).toBeTruthy();
  expect(record.textContent).not.toMatch(/items uploaded items/);

  const user = userEvent.setup();
  // The objects open the explorer at the object level, which it reads from the URL's level.
  await user.click(screen.getByLabelText('Ground-truth objects: 340'));
  await waitFor(() => expect(view.location()).toBe(`${path}/explore?level=image_object`));
});

test('a failing history says so', async () => {
  signedIn({
    [`GET ${api}/history`]: () => ({
      status: 400,
      body: { description: 'nope', retriable: false },
    }),
  });
  renderApp(`${path}/overview`);
  await screen.findByText('History section failed to load');
});

test('IoU threshold: Apply only for a changed value in range, and a confirm naming the models', async () => {
  const { calls } = signedIn({
    [`PUT ${api}/iou_threshold`]: (call) => ({ body: call.body }),
  });
  renderApp(`${path}/overview`);
  const input = await screen.findByRole('spinbutton', { name: 'IoU threshold' });
  const apply = () => screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement;
  await waitFor(() => expect((input as HTMLInputElement).value).toBe('0.5'));
  expect(apply().disabled).toBe(true);
  const user = userEvent.setup();
  await user.clear(input);
  await user.type(input, '1.5');
  expect(apply().disabled).toBe(true);
  await user.clear(input);
  await user.type(input, '0.7');
  await waitFor(() => expect(apply().disabled).toBe(false));
  await user.click(apply());
  await screen.findByText(
    'Changing the IoU threshold invalidates results and results-related metadata for 2 models.',
  );
  await user.click(screen.getAllByRole('button', { name: 'Apply' }).at(-1)!);
  await waitFor(() =>
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ iou_threshold: 0.7 }),
  );
});

test('IoU threshold is not offered for classification, and says when it fails to load', async () => {
  signedIn({
    [`GET ${api}`]: () => ({ body: dataset({ task_type: 'classification' }) }),
  });
  const view = renderApp(`${path}/overview`);
  await screen.findByText('Thumbnails');
  expect(screen.queryByText('IoU threshold')).toBeNull();
  view.unmount();
  signedIn({
    [`GET ${api}/iou_threshold`]: () => ({
      status: 400,
      body: { description: 'nope', retriable: false },
    }),
  });
  renderApp(`${path}/overview`);
  await screen.findByText('IoU threshold setting failed to load');
});

test('turning thumbnails off asks first, then deletes them', async () => {
  const { calls } = signedIn({
    [`PUT ${api}/thumbnails`]: (call) => ({ body: call.body }),
  });
  renderApp(`${path}/overview`);
  const user = userEvent.setup();
  const toggle = await screen.findByRole('switch', { name: 'Thumbnails' });
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
  await user.click(toggle);
  await screen.findAllByText('Disable thumbnails?');
  expect(calls.some((call) => call.method === 'PUT')).toBe(false);
  await user.click(screen.getByRole('button', { name: 'Disable' }));
  await waitFor(() =>
    expect(calls.find((call) => call.method === 'PUT')?.body).toEqual({ enabled: false }),
  );
});

test('delete needs the exact name, then goes back to the list with a toast', async () => {
  const { calls } = signedIn({ [`DELETE ${api}`]: () => ({ body: { ok: true } }) });
  const view = renderApp(`${path}/overview`);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /Delete dataset$/ }));
  const dialog = await findDialog('Delete dataset "street-scenes"?');
  expect(within(dialog).getByText('This action cannot be undone.')).toBeTruthy();
  const confirm = within(dialog).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
  expect(confirm.disabled).toBe(true);
  await user.type(within(dialog).getByRole('textbox', { name: 'Dataset name' }), 'street-scene');
  expect(confirm.disabled).toBe(true);
  await user.type(within(dialog).getByRole('textbox', { name: 'Dataset name' }), 'S');
  expect(confirm.disabled).toBe(true);
  await user.type(within(dialog).getByRole('textbox', { name: 'Dataset name' }), '{Backspace}s');
  expect(confirm.disabled).toBe(false);
  await user.click(confirm);
  await screen.findByText('Dataset "street-scenes" deleted successfully!');
  await waitFor(() => expect(view.location()).toBe('/datasets'));
  expect(calls.some((call) => call.method === 'DELETE')).toBe(true);
});

test('a refused delete says so and stays', async () => {
  signedIn({
    [`DELETE ${api}`]: () => ({
      status: 403,
      body: { description: 'A license is needed.', retriable: false },
    }),
  });
  const view = renderApp(`${path}/overview`);
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: /Delete dataset$/ }));
  const dialog = await findDialog('Delete dataset "street-scenes"?');
  await user.type(within(dialog).getByRole('textbox', { name: 'Dataset name' }), 'street-scenes');
  await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
  await screen.findByText('Failed to delete dataset "street-scenes".');
  expect(view.location()).toBe(`${path}/overview`);
});

test('turning thumbnails on follows the generation job, then shows the previews', async () => {
  let enabled = false;
  let enabledAt = 0;
  let finished = false;
  signedIn({
    [`GET ${api}`]: () => ({
      body: dataset({
        thumbnails_enabled: enabled,
        preview_urls: finished ? ['/api/a.webp', '/api/b.webp'] : [],
      }),
    }),
    [`GET ${api}/thumbnails`]: () => ({ body: { enabled } }),
    [`PUT ${api}/thumbnails`]: () => {
      enabled = true;
      enabledAt = Date.now();
      return { body: { enabled } };
    },
    'GET /api/activities': () => {
      // The job is pending for a little while, done by the next poll (3000 ms later).
      finished = enabled && Date.now() - enabledAt > 2500;
      return {
        body: enabled
          ? [
              {
                id: 'thumbs',
                type: 'Job',
                updated_at: Date.now(),
                job_type: 'ThumbnailGeneration',
                status: finished ? 'SUCCESS' : 'PENDING',
                user_id: null,
                dataset_id: DATASET_ID,
                dataset_name: 'street-scenes',
              },
            ]
          : [],
      };
    },
  });
  renderApp(`${path}/overview`);
  const toggle = await screen.findByRole('switch', { name: 'Thumbnails' });
  await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('false'));
  expect(screen.queryAllByTestId('dataset-preview')).toHaveLength(0);
  await userEvent.setup().click(toggle);
  await screen.findByTestId('thumbnails-generating');
  await waitFor(() => expect(screen.getAllByTestId('dataset-preview')).toHaveLength(2), {
    timeout: 10_000,
  });
  expect(screen.queryByTestId('thumbnails-generating')).toBeNull();
}, 20_000);
