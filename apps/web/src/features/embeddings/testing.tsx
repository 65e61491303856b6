// Test helpers of the embeddings feature: a fake of the WebGL scatter (happy-dom has no WebGL, so
// the scatter module is the outside world), the API answers, and a rendered view with a real
// controlled selection.
import type { Dataset } from '@loupe/contracts';
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { useState } from 'react';
import { vi } from 'vitest';
import type { EmbeddingPointsResponse, EmbeddingsSettings } from '../../api/embeddings';
import { createQueryClient } from '../../api/queryClient';
import { ThemeProvider } from '../../app/theme/ThemeProvider';
import type { Handler } from '../../test/fakeServer';
import { EmbeddingsView, type EmbeddingsViewProps } from './EmbeddingsView';

export { lastScatter, scatters } from './scatter/fakeScatter';

export const DATASET_ID = '3f1c2a6e-7b44-4c1e-9a51-2f0b6d8e9a10';
export const api = `/api/datasets/${DATASET_ID}/embeddings`;

export function dataset(change: Partial<Dataset> = {}): Dataset {
  return {
    id: DATASET_ID,
    name: 'street-scenes',
    description: '',
    task_type: 'classification',
    issues_count: 0,
    samples_count: 5,
    views: [{ id: 'default', name: 'Image' }],
    class_names: ['cat', 'dog'],
    classes_count: 2,
    objects_count: 0,
    predictions_count: 0,
    updated_ts: 0,
    preview_urls: [],
    splits: ['train'],
    iou_threshold: 0.5,
    thumbnails_enabled: true,
    ...change,
  };
}

export function settings(change: Partial<EmbeddingsSettings> = {}): EmbeddingsSettings {
  return {
    feature_names: ['clip', 'resnet'],
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    ...change,
  };
}

export function readyPoints(
  ids: string[],
  change: Partial<EmbeddingPointsResponse> = {},
): EmbeddingPointsResponse {
  return {
    status: 'ready',
    progress: 1,
    feature_name: 'clip',
    dimensionality_reduction_setting: { method: 'UMAP', num_neighbors: 15 },
    num_points: ids.length,
    points: ids.map((id, i) => `${id}|${i}|${i % 3}|${i % 2}`),
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
    [`POST /api/datasets/${DATASET_ID}/items`]: (call) => ({
      body: {
        version: 1,
        items: ((call.body as { item_ids?: string[] }).item_ids ?? []).map((id, row) => ({
          id,
          row,
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
    }),
    ...change,
  };
}

export function renderView(props: Partial<EmbeddingsViewProps> = {}, initial: string[] = []) {
  const queryClient = createQueryClient({ onUnauthorized: () => undefined });
  const onSelectionChange = vi.fn();
  const onOpenItem = vi.fn();
  function Host() {
    const [selected, setSelected] = useState<ReadonlySet<string>>(new Set(initial));
    return (
      <div style={{ height: 600 }}>
        <EmbeddingsView
          dataset={dataset()}
          dataLevel="image"
          selectedIds={selected}
          onSelectionChange={(ids) => {
            onSelectionChange(ids);
            setSelected(new Set(ids));
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
