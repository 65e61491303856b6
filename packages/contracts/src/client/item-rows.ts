// The answer of item_rows read back: the explorer's result as row indices straight from the
// answer's bytes (no base64, no JSON), as the web app, the benchmarks and tests read it.
import { NUM_ITEMS_HEADER } from '../explore.js';
import { decodeIndices } from '../row-encoding.js';

/** An explorer result: row indices in result order into the item table of `version`. */
export interface ItemRowsAnswer {
  rows: Uint32Array;
  /** Items in the result (rows.length). */
  total: number;
  /** Items at the data level before filtering. */
  num_items: number;
  version: number;
}

/** Reads `client.call(api.explore.itemRows, …)`'s Response; throws on an answer of another kind. */
export async function readItemRows(response: Response): Promise<ItemRowsAnswer> {
  const type = response.headers.get('content-type') ?? '';
  const numItems = Number(response.headers.get(NUM_ITEMS_HEADER) ?? NaN);
  if (!type.startsWith('application/octet-stream') || !Number.isInteger(numItems)) {
    await response.body?.cancel().catch(() => undefined);
    throw new Error(`The item_rows answer is not encoded rows (content-type '${type}')`);
  }
  const { indices, version } = decodeIndices(new Uint8Array(await response.arrayBuffer()));
  return { rows: indices, total: indices.length, num_items: numItems, version };
}
