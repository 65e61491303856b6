// The explorer's query factories own their not-found mapping, polling and stale-rows handling,
// so every component reading the same key sees the same answer.
import type { MetadataFieldInfo } from '@loupe/contracts';
import { expect, test } from 'vitest';
import '../../test/setup';
import { fakeServer } from '../../test/fakeServer';
import { createQueryClient } from '../queryClient';
import { ApiError } from '../ApiError';
import { itemBatchQuery, itemRowsQuery, metadataInfoQuery, METADATA_POLL_MS } from './explore';

const DATASET_ID = 'd1';
const api = `/api/datasets/${DATASET_ID}`;
const field = (state: MetadataFieldInfo['state']): MetadataFieldInfo => ({
  id: 'width',
  name: 'width',
  label: 'Width',
  description: '',
  group: 'Uploaded',
  source: 'uploaded',
  state,
  type: 'numeric',
});

test('metadata info: not found is no fields; other failures stay failures', async () => {
  fakeServer({
    [`GET ${api}/metadata_info`]: () => ({
      status: 404,
      body: { description: 'No fields at this level', retriable: false },
    }),
  });
  const queryClient = createQueryClient();
  await expect(
    queryClient.fetchQuery(metadataInfoQuery(DATASET_ID, 'image_object')),
  ).resolves.toEqual({ metadata_config: [] });

  fakeServer({
    [`GET ${api}/metadata_info`]: () => ({
      status: 403,
      body: { description: 'No access', retriable: false },
    }),
  });
  const failure = await queryClient
    .fetchQuery(metadataInfoQuery(DATASET_ID, 'image'))
    .catch((error: unknown) => error);
  expect(failure).toBeInstanceOf(ApiError);
  expect((failure as ApiError).status).toBe(403);
});

test('metadata info is asked again every 3 s while a field is pending, not once all are available', async () => {
  const states: MetadataFieldInfo['state'][] = ['pending', 'available'];
  const { calls } = fakeServer({
    [`GET ${api}/metadata_info`]: () => ({ body: { metadata_config: [field(states.shift()!)] } }),
  });
  const queryClient = createQueryClient();
  const options = metadataInfoQuery(DATASET_ID, 'image', 'ps-1');
  const interval = options.refetchInterval as (query: unknown) => number | false;

  await queryClient.fetchQuery(options);
  const query = queryClient.getQueryCache().find({ queryKey: options.queryKey })!;
  expect(interval(query)).toBe(METADATA_POLL_MS);
  await queryClient.refetchQueries({ queryKey: options.queryKey });
  expect(interval(query)).toBe(false);
  expect(calls.map((call) => call.path)).toEqual([`${api}/metadata_info`, `${api}/metadata_info`]);
});

test('an items batch answered 409 (the table changed) makes its rows stale', async () => {
  const rowsQuery = { data_level: 'image' as const, sort: [], filter: null };
  fakeServer({
    [`POST ${api}/items`]: () => ({
      status: 409,
      body: { description: 'The item table changed', retriable: false },
    }),
  });
  const queryClient = createQueryClient();
  const rowsKey = itemRowsQuery(DATASET_ID, rowsQuery).queryKey;
  queryClient.setQueryData(rowsKey, {
    rows: new Uint32Array([0, 1]),
    version: 1,
    numItems: 2,
    query: rowsQuery,
  });
  expect(queryClient.getQueryState(rowsKey)?.isInvalidated).toBe(false);

  const batch = itemBatchQuery(
    {
      datasetId: DATASET_ID,
      dataLevel: 'image',
      rowsQuery,
      rows: new Uint32Array([0, 1]),
      version: 1,
    },
    0,
  );
  await expect(queryClient.fetchQuery(batch)).rejects.toBeInstanceOf(ApiError);
  expect(queryClient.getQueryState(rowsKey)?.isInvalidated).toBe(true);
});
