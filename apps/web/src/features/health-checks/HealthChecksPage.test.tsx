// The checks list as a signed-in user meets it, through the real route table and a fake API.
import '../../test/setup';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { renderApp } from '../../test/renderApp';
import {
  api,
  check,
  checksServer,
  DATASET_ID,
  failed,
  listPath,
  model,
  MODEL_ID,
  passed,
} from './testData';

const rows = () =>
  screen.getAllByTestId('check-row').map((row) => row.getAttribute('data-check-id'));

test('groups in catalogue order, checks by status then catalogue order, with summary and percentage', async () => {
  checksServer({
    checks: [
      check('duplicate_leaked.image', { status: passed(10) }),
      check('duplicate.image', { status: { type: 'disabled_check' } }),
      check('near_duplicate.image', { status: failed('2 groups of near duplicates (5 items)') }),
      check('dark.image', { group: 'Image Quality', status: { type: 'pending_check' } }),
      check('outlier.image', {
        group: 'Outliers',
        status: {
          type: 'missing_req_check',
          requirements: [
            {
              kind: 'feature',
              data_level: 'image',
              name: 'clip',
              feature_type: 'x',
              message: 'Upload a feature.',
            },
          ],
        },
      }),
    ],
  });
  renderApp(listPath);
  await waitFor(() => expect(screen.getAllByTestId('check-row')).toHaveLength(5));
  expect(screen.getAllByTestId('check-group').map((g) => g.getAttribute('data-group'))).toEqual([
    'Data Leakage & Duplicates',
    'Outliers',
    'Image Quality',
  ]);
  expect(rows()).toEqual([
    'near_duplicate.image',
    'duplicate_leaked.image',
    'duplicate.image',
    'outlier.image',
    'dark.image',
  ]);
  const first = screen.getAllByTestId('check-row')[0]!;
  expect(within(first).getByTestId('check-status').textContent).toBe('Failed');
  expect(within(first).getByText('2 groups of near duplicates (5 items)')).toBeTruthy();
  expect(screen.getByText('10 items have been checked')).toBeTruthy();
  expect(screen.getByText('Upload a feature.')).toBeTruthy();
  expect(screen.getAllByTestId('check-status').map((tag) => tag.textContent)).toEqual([
    'Failed',
    'Passed',
    'Disabled',
    'Missing Requirements',
    'Computing',
  ]);
  // passed 1 of 4 enabled: 25 %.
  expect(screen.getByTestId('checks-passing').textContent).toBe('25% passing');
  expect(
    within(first).getByRole('link', { name: 'near_duplicate.image' }).getAttribute('href'),
  ).toBe(`${listPath}/near_duplicate.image`);
});

test('a group of 7 checks shows 3 and Show 4 More / Show 4 Less', async () => {
  const names = [
    'dark',
    'bright',
    'blurry',
    'low_information',
    'odd_aspect_ratio',
    'odd_size',
    'grayscale',
  ];
  checksServer({ checks: names.map((n) => check(`${n}.image`, { group: 'Image Quality' })) });
  renderApp(listPath);
  await waitFor(() => expect(screen.getAllByTestId('check-row')).toHaveLength(3));
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('button', { name: 'Show 4 More' }));
  expect(rows()).toEqual(names.map((n) => `${n}.image`));
  await user.click(screen.getByRole('button', { name: 'Show 4 Less' }));
  expect(rows()).toHaveLength(3);
});

test('empty: No health checks found; failure: Dataset health checks failed to load', async () => {
  checksServer({ checks: [] });
  const view = renderApp(listPath);
  expect(await screen.findByText('No health checks found')).toBeTruthy();
  view.unmount();
  checksServer({
    routes: {
      [`GET ${api}/checks`]: () => ({
        status: 500,
        body: { description: 'db down', retriable: false },
      }),
    },
  });
  renderApp(listPath);
  expect(await screen.findByText('Dataset health checks failed to load')).toBeTruthy();
});

test('the switch disables a check; Run checks queues the run and shows it computing; the model select sets predictions_id', async () => {
  let computing = false;
  const { calls } = checksServer({
    checks: [check('duplicate.image', { status: passed() })],
    models: [model],
    routes: {
      [`POST ${api}/checks/run`]: () => {
        computing = true;
        return { body: { queued: true } };
      },
    },
    computing: () => computing,
  });
  const view = renderApp(listPath);
  const user = userEvent.setup({ delay: null });
  const toggle = await screen.findByRole('switch', { name: 'Enable duplicate.image' });
  expect(toggle.getAttribute('aria-checked')).toBe('true');
  await user.click(toggle);
  await waitFor(() =>
    expect(calls.find((c) => c.method === 'PUT')).toEqual({
      method: 'PUT',
      path: `${api}/checks/settings/duplicate.image`,
      body: { enabled: false },
    }),
  );
  await waitFor(() => expect(screen.getByTestId('check-status').textContent).toBe('Disabled'));
  await user.click(screen.getByRole('button', { name: /Run checks/ }));
  await waitFor(() => expect(calls.some((c) => c.path === `${api}/checks/run`)).toBe(true));
  // Computing while the job runs (the list polls), then Run checks again.
  const busy = await screen.findByRole('button', { name: /Computing checks/ });
  expect(busy.className).toContain('ant-btn-loading');
  computing = false;
  await screen.findByRole('button', { name: /Run checks/ }, { timeout: 6_000 });

  await user.click(screen.getByRole('combobox', { name: 'Model' }));
  await user.click(await screen.findByTitle('resnet'));
  await waitFor(() => expect(view.location()).toBe(`${listPath}?predictions_id=${MODEL_ID}`));
});

test('without a license Run checks, Add health check and the switches are disabled', async () => {
  checksServer({ checks: [check('duplicate.image')], licensed: false });
  renderApp(listPath);
  const toggle = await screen.findByRole('switch', { name: 'Enable duplicate.image' });
  await waitFor(() => expect((toggle as HTMLButtonElement).disabled).toBe(true));
  expect((screen.getByRole('button', { name: /Run checks/ }) as HTMLButtonElement).disabled).toBe(
    true,
  );
  expect(
    (screen.getByRole('button', { name: /Add health check/ }) as HTMLButtonElement).disabled,
  ).toBe(true);
});

test('Add health check: create needs a name and a filter; a taken name says so', async () => {
  const { calls } = checksServer({
    checks: [check('duplicate.image')],
    routes: {
      [`GET ${api}/metadata_info`]: () => ({
        body: {
          metadata_config: [
            {
              id: 'image.blurry',
              name: 'blurry',
              label: 'Blurry',
              description: '',
              group: 'Image',
              source: 'computed',
              state: 'available',
              type: 'boolean',
            },
          ],
        },
      }),
      [`POST ${api}/checks`]: () => ({
        status: 409,
        body: { description: 'Name already exists.', retriable: false },
      }),
    },
  });
  renderApp(listPath);
  const user = userEvent.setup({ delay: null });
  const add = () => screen.getByRole('button', { name: /Add health check/ }) as HTMLButtonElement;
  await waitFor(() => expect(add().disabled).toBe(false));
  await user.click(add());
  const dialog = await findDialog('Add health check');
  const create = () => within(dialog).getByRole('button', { name: 'Create' }) as HTMLButtonElement;
  expect(create().disabled).toBe(true);
  expect(create().parentElement!.getAttribute('data-disabled-reason')).toBe(
    'Name is required. Filter is required.',
  );

  await user.type(within(dialog).getByRole('textbox'), 'Blurry train');
  expect(create().parentElement!.getAttribute('data-disabled-reason')).toBe('Filter is required.');
  await user.click(within(dialog).getByRole('button', { name: /Add condition/ }));
  await user.click(within(dialog).getByRole('combobox', { name: 'Field' }));
  await user.click(await screen.findByTitle('Blurry'));
  await user.click(within(dialog).getByRole('combobox', { name: 'Values' }));
  await user.click(await screen.findByTitle('true'));
  await waitFor(() => expect(create().disabled).toBe(false));
  await user.click(create());
  expect(await within(dialog).findByText('Name already exists.')).toBeTruthy();
  expect(calls.find((c) => c.method === 'POST' && c.path === `${api}/checks`)!.body).toEqual({
    check_key: 'data_check_from_filter',
    config: {
      check_name: 'Blurry train',
      filter: {
        filter: {
          type: 'and',
          children: [
            { type: 'boolean', metadata_id: 'image.blurry', op: 'bool_equals', value: true },
          ],
        },
        include_missing: false,
        data_level: 'image',
      },
    },
  });
});

test('under a model: its checks, Models › dataset › model crumbs, and links that stay under it', async () => {
  const other = { ...model, id: 'model-2', name: 'vit' };
  checksServer({
    checks: [check('duplicate.image', { status: passed() })],
    models: [model, other],
  });
  const root = `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}`;
  const view = renderApp(`${root}/checks`);
  expect((await screen.findByRole('link', { name: 'duplicate.image' })).getAttribute('href')).toBe(
    `${root}/checks/duplicate.image`,
  );
  expect(screen.getByRole('link', { name: 'Models' }).getAttribute('href')).toBe('/models');
  expect((await screen.findByRole('link', { name: 'resnet' })).getAttribute('href')).toBe(
    `${root}/overview`,
  );
  // Choosing another model opens its checks.
  const user = userEvent.setup({ delay: null });
  await user.click(screen.getByRole('combobox', { name: 'Model' }));
  await user.click(await screen.findByTitle('vit'));
  await waitFor(() =>
    expect(view.location()).toBe(`/models/datasets/${DATASET_ID}/predictions/model-2/checks`),
  );
});
