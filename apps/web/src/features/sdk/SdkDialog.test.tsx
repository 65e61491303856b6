// The SDK dialog's upload step: a snippet per task type (classification first), and the SDK
// documentation served read-only by the instance.
import '../../test/setup';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { findDialog } from '../../test/findDialog';
import { adminUser, appState, fakeServer } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function signedIn() {
  fakeServer({
    'GET /api/state': () => ({ body: appState({ user: adminUser }) }),
    'GET /api/settings/license': () => ({
      body: { state: 'LICENSED', key: 'lic-key', expiration_ts: 2e9 },
    }),
    'GET /api/settings/tokens': () => ({
      body: { sdk_index_url: 'http://localhost:8080/sdk/python/simple/' },
    }),
    'GET /api/settings/key': () => ({ body: { name: 'Development', api_key: 'lp_key' } }),
  });
}

async function openSdkDialog() {
  signedIn();
  renderApp('/datasets');
  const start = await findDialog('Getting started');
  await userEvent.setup().click(within(start).getByText('Set up SDK', { exact: true }));
  return findDialog('Set up SDK');
}

async function chooseTask(combobox: HTMLElement, title: string) {
  fireEvent.mouseDown(combobox);
  const option = await waitFor(() => {
    const found = document.querySelector<HTMLElement>(
      `.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="${title}"]`,
    );
    if (!found) throw new Error(`No option ${title}`);
    return found;
  });
  fireEvent.click(option);
}

test('the upload step shows the chosen task type’s snippet, using the saved configuration', async () => {
  const sdk = await openSdkDialog();
  const snippet = await within(sdk).findByTestId('sdk-upload-snippet');
  expect(snippet.textContent).toContain(
    'client = loupe.Client()  # the address and key saved by loupe configure',
  );
  expect(snippet.textContent).toContain(
    '"pets", "classification", class_names=["cat", "dog"], exist_ok=True',
  );
  expect(snippet.textContent).not.toContain('lp_key');

  await chooseTask(
    within(sdk).getByRole('combobox', { name: 'Task type' }),
    'Semantic Segmentation',
  );
  await waitFor(() =>
    expect(within(sdk).getByTestId('sdk-upload-snippet').textContent).toContain(
      '"mask": "masks/road-1.png"',
    ),
  );
  const semantic = within(sdk).getByTestId('sdk-upload-snippet').textContent;
  expect(semantic).toContain('"semantic_segmentation",');
  expect(semantic).toContain('label_map={0: "background", 1: "road", 2: "car"},');
});

test('the SDK documentation opens read-only from the dialog and from the snippet, at its section', async () => {
  const sdk = await openSdkDialog();
  await within(sdk).findByTestId('sdk-upload-snippet');
  const links = within(sdk).getAllByRole('button', { name: /SDK documentation/ });
  // One under the snippet (at upload_samples), one in the footer (from the top).
  expect(links).toHaveLength(2);
  await userEvent.setup().click(links[0]!);
  const docs = await screen.findByTestId('sdk-docs', {}, { timeout: 10_000 });
  expect(within(docs).getByRole('heading', { name: 'Errors and retries' })).toBeTruthy();
  expect(within(docs).getByRole('heading', { name: /^upload_samples\(/ })).toBeTruthy();
  // The field table names every task's fields.
  expect(within(docs).getByText('semantic segmentation')).toBeTruthy();
  expect(within(docs).getAllByText('transcript').length).toBeGreaterThan(0);
});
