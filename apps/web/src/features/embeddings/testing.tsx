// Test helpers of the embeddings feature, and its door for other features' tests: a fake of the
// WebGL scatter (happy-dom has no WebGL, so the scatter module is the outside world; importing
// this module puts the fake in its place), the API answers, and a rendered view with a real
// controlled selection.
import {
  encodeIndices,
  type Dataset,
  type EmbeddingPointsResponse,
  type EmbeddingsSettings,
} from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useState } from 'react';
import { vi } from 'vitest';
import { createQueryClient } from '../../api/queryClient';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import type { Handler } from '../../test/fakeServer';
import { datasetFixture } from '../../test/fixtures';
import { EmbeddingsView, type EmbeddingsViewProps } from './EmbeddingsView';

export { lastScatter, scatters } from './scatter/fakeScatter';

vi.mock('./scatter/createScatter', () => import('./scatter/fakeScatter'));

export const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
export const api = `/api/datasets/${DATASET_ID}/embeddings`;

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return datasetFixture({
    id: DATASET_ID,
    name: 'street-scenes',
    samples_count: 5,
    updated_ts: 0,
    splits: ['train'],
    ...change,
  });
}

export function settings(change: Partial<EmbeddingsSettings> = {}): EmbeddingsSettings {
  return {
    feature_names: ['clip', 'resnet'],
    predictions_feature_names: [],
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    ...change,
  };
}

/** The item table's version in these tests: the points' rows and the grid's share it. */
export const TABLE_VERSION = 1;

function base64(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/**
 * A ready answer of format 'binary' for the items `ids`, item i at row i of the table of
 * `version`: x = i, y = i % 3, coloured by category code i % 2 (the legend's keys '0' and '1').
 */
export function readyPoints(
  ids: string[],
  change: Partial<EmbeddingPointsResponse> = {},
  version = TABLE_VERSION,
): EmbeddingPointsResponse {
  const rows = Uint32Array.from(ids, (_, i) => i);
  const xy = Float32Array.from({ length: 2 * ids.length }, (_, t) =>
    t % 2 === 0 ? t / 2 : ((t - 1) / 2) % 3,
  );
  const codes = Uint16Array.from(ids, (_, i) => i % 2);
  return {
    status: 'ready',
    progress: 1,
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    num_points: ids.length,
    version,
    binary: {
      rows: base64(encodeIndices(rows, { version, format: 'u32' })),
      xy: base64(new Uint8Array(xy.buffer)),
      colors: base64(new Uint8Array(codes.buffer)),
    },
    legend: {
      type: 'categorical',
      categories: [
        { key: '0', label: 'cat', color: '#d4380d' },
        { key: '1', label: 'dog', color: '#1668dc' },
      ],
    },
    num_missing: 0,
    ...change,
  };
}

export function embeddingsRoutes(
  change: Record<string, Handler> = {},
  { ids = ['a', 'b', 'c', 'd', 'e'] }: { ids?: string[] } = {},
): Record<string, Handler> {
  return {
    [`GET ${api}/settings`]: () => ({ body: settings() }),
    [`POST ${api}/points`]: () => ({ body: readyPoints(ids) }),
    // Items by id, or by row of the table (the map's points carry rows).
    [`POST /api/datasets/${DATASET_ID}/items`]: (call) => {
      const body = call.body as { item_ids?: string[]; rows?: number[]; version?: number };
      if (body.rows && body.version !== TABLE_VERSION)
        return { status: 409, body: { description: 'stale rows', retriable: true } };
      const wanted = body.item_ids ?? (body.rows ?? []).map((row) => ids[row]!);
      return {
        body: {
          version: TABLE_VERSION,
          items: wanted.map((id) => ({
            id,
            row: ids.indexOf(id),
            data_level: 'image',
            sample_id: id,
            type: 'gt',
            media_type: 'image',
            src: `/media/${id}.jpg`,
            thumbnail_src: `/thumbs/${id}.webp`,
            spectrogram_src: null,
            width: 10,
            height: 10,
            duration: null,
            crop: null,
            split: 'train',
            label: `label of ${id}`,
            labels: null,
            values: null,
            transcript: null,
            mask_src: null,
            prediction: null,
            objects: [],
            metadata: {},
          })),
        },
      };
    },
    ...change,
  };
}

export function renderView(props: Partial<EmbeddingsViewProps> = {}, initial: number[] = []) {
  const queryClient = createQueryClient({ onUnauthorized: () => undefined });
  const onSelectionChange = vi.fn();
  const onOpenItem = vi.fn();
  function Host() {
    const [selected, setSelected] = useState<ReadonlySet<number>>(new Set(initial));
    return (
      <div style={{ height: 600 }}>
        <EmbeddingsView
          dataset={dataset()}
          dataLevel="image"
          selectedRows={selected}
          tableVersion={TABLE_VERSION}
          onSelectionChange={(rows, version) => {
            onSelectionChange(rows, version);
            setSelected(new Set(rows));
          }}
          onOpenItem={onOpenItem}
          {...props}
        />
      </div>
    );
  }
  const view = render(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <Host />
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return { ...view, onSelectionChange, onOpenItem, queryClient };
}
