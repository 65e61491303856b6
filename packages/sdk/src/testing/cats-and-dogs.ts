// The small classification dataset the CLI's integration tests work out by hand: one 4 × 4 image
// per sample, classes cat and dog, a model's predicted label per sample (null: no prediction), and
// the subset 'Cats' = {a, b, e} enabled for performance.
import { api } from '@loupe/contracts';
import { encode as encodePng } from 'fast-png';
import type { DatasetHandle, LoupeClient } from '../client/client.js';

export interface CatsAndDogsModel {
  name: string;
  /** One label per sample, in the samples' order; null: the model did not predict it. */
  labels: (string | null)[];
  score: number;
}

function png(seed: number): Uint8Array {
  const data = new Uint8Array(4 * 4 * 3).map((_, i) => (i * 37 + seed * 101) % 256);
  return encodePng({ width: 4, height: 4, data, channels: 3, depth: 8 });
}

/** Samples `[id, split, label]` become images `<id>.png`; each model one prediction set. */
export async function createCatsAndDogs(
  client: LoupeClient,
  name: string,
  samples: readonly (readonly [id: string, split: string, label: string, ...rest: unknown[]])[],
  models: readonly CatsAndDogsModel[],
): Promise<DatasetHandle> {
  const dataset = await client.createDataset({
    name,
    task_type: 'classification',
    class_names: ['cat', 'dog'],
  });
  await dataset.uploadSamples(
    samples.map(([id, split, label], i) => ({ id: `${id}.png`, image: png(i), split, label })),
  );
  for (const model of models)
    await dataset.uploadPredictions(
      model.name,
      samples.flatMap(([id], i) => {
        const label = model.labels[i];
        return label ? [{ id: `${id}.png`, label, score: model.score }] : [];
      }),
    );
  await client.http.call(api.subsets.create, {
    params: { id: dataset.id },
    body: {
      name: 'Cats',
      data_level: 'image',
      item_ids: ['a.png', 'b.png', 'e.png'],
      enabled_for_performance: true,
    },
  });
  return dataset;
}
