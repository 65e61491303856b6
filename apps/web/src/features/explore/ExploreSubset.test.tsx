// The explorer on one subset (?subset_id=…): only its items are asked for, the data level is the
// subset's and locked, and Back returns to the subset's page (at a model route, the model's).
import '../../test/setup';
import type { ItemRowsRequest } from '@loupe/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { renderApp } from '../../test/renderApp';
import { DATASET_ID, api, exploreModel, exploreServer, explorePath, MODEL_ID } from './testData';

const SUBSET_ID = '1a000000-0000-4000-8000-000000000001';

// The explorer is its own chunk: its first render may take a while on a busy machine.
const loaded = () => screen.findByTestId('explore-toolbar', {}, { timeout: 30_000 });

test(
  'a subset locks its data level, and Back returns to the subset',
  { timeout: 120_000 },
  async () => {
    const { calls } = exploreServer();
    const view = renderApp(`${explorePath}?subset_id=${SUBSET_ID}&level=image_object`);
    await loaded();
    const level = await screen.findByRole('radiogroup', { name: 'Data level' });
    await waitFor(() =>
      expect(level.querySelector('.ant-segmented-item-selected')?.textContent).toBe('Object'),
    );
    expect(level.closest('.ant-segmented')!.classList.contains('ant-segmented-disabled')).toBe(
      true,
    );
    const rowsCall = calls.find((call) => call.path === `${api}/item_rows`)!
      .body as ItemRowsRequest;
    expect(rowsCall).toMatchObject({ subset_id: SUBSET_ID, data_level: 'image_object' });

    const user = userEvent.setup({ delay: null });
    await user.hover(level);
    expect(await screen.findByText('Subset data level cannot be changed.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Back' }));
    await waitFor(() =>
      expect(view.location()).toBe(`/datasets/${DATASET_ID}/subsets/${SUBSET_ID}`),
    );
  },
);

test("at a model route Back returns to the model's subset page", { timeout: 120_000 }, async () => {
  exploreServer({
    routes: {
      'GET /api/dataset/models': () => ({
        body: [exploreModel()],
      }),
    },
  });
  const view = renderApp(
    `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/explore?subset_id=${SUBSET_ID}`,
  );
  await loaded();
  await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Back' }));
  await waitFor(() =>
    expect(view.location()).toBe(
      `/models/datasets/${DATASET_ID}/predictions/${MODEL_ID}/subsets/${SUBSET_ID}`,
    ),
  );
});
