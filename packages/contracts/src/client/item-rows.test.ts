import { describe, expect, it } from 'vitest';
import { NUM_ITEMS_HEADER } from '../explore.js';
import { api } from '../routes/index.js';
import { encodeIndices } from '../row-encoding.js';
import { createClient } from './client.js';
import { readItemRows } from './item-rows.js';

const bytesAnswer = (bytes: Uint8Array, numItems: string | null) =>
  new Response(bytes, {
    headers: {
      'content-type': 'application/octet-stream',
      ...(numItems === null ? {} : { [NUM_ITEMS_HEADER]: numItems }),
    },
  });

describe('readItemRows', () => {
  it('reads the rows, their version and the level’s item count from an item_rows answer', async () => {
    const rows = Uint32Array.from([2_999_999, 0, 17, 1_000_000, 5]);
    const sent: RequestInit[] = [];
    const client = createClient({
      fetch: async (_url, init) => {
        sent.push(init);
        return bytesAnswer(encodeIndices(rows, { version: 42 }), '3000000');
      },
    });
    const answer = await readItemRows(
      await client.call(api.explore.itemRows, {
        params: { id: 'd1' },
        body: {
          data_level: 'image_object',
          sort: [{ name: 'object.area', direction: 'ascending' }],
        },
      }),
    );
    expect(answer).toEqual({ rows, total: 5, num_items: 3_000_000, version: 42 });
    expect(JSON.parse(sent[0]!.body as string)).toEqual({
      data_level: 'image_object',
      sort: [{ name: 'object.area', direction: 'ascending' }],
    });
  });

  it('reads every encoding, a large bit-packed result included', async () => {
    const many = Uint32Array.from({ length: 100_003 }, (_, i) => (i * 7919) % 1_048_577);
    for (const [rows, format] of [
      [many, 'bitpacked'],
      [Uint32Array.from([1, 2, 3, 900]), 'delta-varint'],
      [Uint32Array.from([9, 3]), 'u32'],
      [new Uint32Array(0), 'bitpacked'],
    ] as const) {
      const answer = await readItemRows(
        bytesAnswer(encodeIndices(rows, { version: 1, format }), '1048577'),
      );
      expect(answer.rows).toEqual(rows);
      expect(answer.total).toBe(rows.length);
    }
  });

  it('refuses an answer that is not encoded rows', async () => {
    await expect(
      readItemRows(
        new Response('{"total":0}', { headers: { 'content-type': 'application/json' } }),
      ),
    ).rejects.toThrow(/not encoded rows/);
    await expect(
      readItemRows(bytesAnswer(encodeIndices(new Uint32Array(1), { version: 1 }), null)),
    ).rejects.toThrow(/not encoded rows/);
  });
});
