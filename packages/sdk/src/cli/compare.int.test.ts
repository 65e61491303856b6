// `loupe compare` and LoupeClient.compare against a real, built server, on two classification
// models whose comparison is worked out by hand, and the Python SDK's `loupe compare` printing
// the same text for the same pair.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { COMPARISON_MESSAGES, type EntityDelta } from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoupeClient, type DatasetHandle } from '../client/client.js';
import { LoupeError } from '../client/errors.js';
import { repositoryRoot, startLocalServer, type LocalServer } from '../testing/local-server.js';
import { createCatsAndDogs } from '../testing/cats-and-dogs.js';
import { runCliAgainst } from '../testing/cli.js';

// Six images, classes cat and dog, and what models A and B predict:
//   train: a cat (A cat, B cat), b cat (A dog, B cat), c dog (A dog, B dog)
//   test:  d dog (A dog, B cat), e cat (A dog, B cat), f dog (A none: wrong, B dog)
// Accuracy: A 3/6 (a c d), B 5/6 (a b c e f): delta 1/3, relative (1/3)/(1/2) = 66.67 %, B better.
// Per sample: A better on d, B better on b e f, both correct on a c, both incorrect on none.
// A: cat P 1, R 1/3, F1 1/2; dog P 2/4, R 2/3, F1 4/7; macro F1 15/28.
// B: cat (predicted a b d e) P 3/4, R 1, F1 6/7; dog (predicted c f) P 1, R 2/3, F1 4/5;
// macro F1 29/35. Per class F1: cat +5/14, dog +8/35: B better on both, cat first.
// Train (a b c): accuracy A 2/3, B 1; B better on b. The subset {a, b, e}: accuracy A 1/3, B 1.
const SAMPLES: [id: string, split: string, label: string, a: string | null, b: string][] = [
  ['a', 'train', 'cat', 'cat', 'cat'],
  ['b', 'train', 'cat', 'dog', 'cat'],
  ['c', 'train', 'dog', 'dog', 'dog'],
  ['d', 'test', 'dog', 'dog', 'cat'],
  ['e', 'test', 'cat', 'dog', 'cat'],
  ['f', 'test', 'dog', null, 'dog'],
];

let server: LocalServer;
let client: LoupeClient;
let dataset: DatasetHandle;
const name = `compare-${Date.now()}`;

beforeAll(async () => {
  server = await startLocalServer();
  client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
  dataset = await createCatsAndDogs(client, name, SAMPLES, [
    { name: 'model-a', labels: SAMPLES.map(([, , , a]) => a), score: 0.9 },
    { name: 'model-b', labels: SAMPLES.map(([, , , , b]) => b), score: 0.8 },
  ]);
}, 60_000);
afterAll(() => server?.stop());

const cli = (...args: string[]) =>
  runCliAgainst(server, [
    'compare',
    '--dataset',
    name,
    '--model-a',
    'model-a',
    '--model-b',
    'model-b',
    ...args,
  ]);

const entities = (list: EntityDelta[]) => list.map((e) => [e.entity, e.raw_delta]);

describe('LoupeClient.compare', () => {
  it('answers the numbers worked out by hand, waiting while they are computed', async () => {
    const [a, b] = await Promise.all([
      dataset.predictionSet('model-a'),
      dataset.predictionSet('model-b'),
    ]);
    const comparison = await client.compare(a, b, {
      metric: 'macro_f1_score',
      subsets: true,
      timeoutMs: 120_000,
    });
    expect([comparison.status, comparison.task, comparison.metric]).toEqual([
      'ready',
      'classification',
      'macro_f1_score',
    ]);
    const accuracy = comparison.overall.accuracy!;
    expect(accuracy.model_a).toBeCloseTo(1 / 2, 10);
    expect(accuracy.model_b).toBeCloseTo(5 / 6, 10);
    expect(accuracy.raw_delta).toBeCloseTo(1 / 3, 10);
    expect(accuracy.relative_delta).toBeCloseTo(200 / 3, 8);
    expect(accuracy.better).toBe('model_b_is_better');
    const f1 = comparison.overall.macro_f1_score!;
    expect(f1.model_a).toBeCloseTo(15 / 28, 10);
    expect(f1.model_b).toBeCloseTo(29 / 35, 10);
    expect(comparison.overall.macro_precision!.model_b).toBeCloseTo(7 / 8, 10);
    expect(comparison.overall.macro_recall!.model_b).toBeCloseTo(5 / 6, 10);

    const perClass = comparison.per_class!;
    expect(perClass.entity).toBe('class');
    expect(perClass.model_a_is_better).toEqual([]);
    const bBetter = entities(perClass.model_b_is_better);
    expect(bBetter.map(([entity]) => entity)).toEqual(['cat', 'dog']);
    expect(bBetter[0]![1]).toBeCloseTo(5 / 14, 10);
    expect(bBetter[1]![1]).toBeCloseTo(8 / 35, 10);

    const perSample = comparison.per_sample!;
    expect(perSample.num_items).toBe(6);
    expect(
      [
        perSample.model_a_is_better,
        perSample.both_are_problematic,
        perSample.both_are_neutral,
        perSample.model_b_is_better,
      ].map((c) => c.num_items),
    ).toEqual([1, 0, 2, 3]);

    const subsets = Object.values(comparison.subsets!.comparison_per_subset);
    expect(subsets.map((s) => s.subset.name)).toEqual(['Cats']);
    expect(comparison.subsets!.pending_subsets).toEqual([]);
    const cats = subsets[0]!.comparison_per_metric.accuracy!;
    expect(cats.model_a).toBeCloseTo(1 / 3, 10);
    expect(cats.model_b).toBeCloseTo(1, 10);
    expect(cats.category).toBe('model_b_is_better');
  });

  it('compares another split, model B by name, and accuracy has no per-class breakdown', async () => {
    const a = await dataset.predictionSet('model-a');
    const train = await a.compare('model-b', { split: 'train', timeoutMs: 120_000 });
    expect([train.split, train.metric]).toEqual(['train', 'accuracy']);
    expect(train.overall.accuracy!.model_a).toBeCloseTo(2 / 3, 10);
    expect(train.overall.accuracy!.model_b).toBeCloseTo(1, 10);
    expect(train.per_class).toBeNull();
    expect(train.per_class_unavailable).toBe(true);
    expect(train.per_sample!.num_items).toBe(3);
    expect(train.per_sample!.model_b_is_better.num_items).toBe(1);
  });

  it("refuses the same model twice with the server's description", async () => {
    const a = await dataset.predictionSet('model-a');
    const error = await client.compare(a, a).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).status).toBe(400);
    expect((error as LoupeError).description).toBe(COMPARISON_MESSAGES.sameModel);
  });
});

describe('loupe compare', () => {
  it('prints the winners, the per-class breakdown and the per-sample counts', async () => {
    const { code, stdout, stderr } = await cli('--metric', 'macro_f1_score');
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      `Comparison of model A 'model-a' and model B 'model-b' on dataset '${name}' (classification)`,
    );
    expect(lines[1]).toBe('Split all, metric Macro F1');
    const line = (start: string) => lines.find((l) => l.startsWith(start))!.split(/\s{2,}/);
    expect(line('Accuracy ')).toEqual([
      'Accuracy',
      '50.00%',
      '83.33%',
      '+33.33%',
      '+66.67%',
      'Model B',
    ]);
    expect(stdout).toContain(
      'Per class breakdown (F1)\nModel A is better on 0 items, Model B is better on 2 items\n',
    );
    expect(line('cat ')).toEqual(['cat', 'Model B is better', '50.00%', '85.71%', '+35.71%']);
    const perSample = stdout.slice(stdout.indexOf('Per sample breakdown (6 samples)\n'));
    expect(perSample.split('\n').slice(1, 6)).toEqual([
      'Category            Items   Share',
      'Model A is better       1  16.67%',
      'Both are incorrect      0   0.00%',
      'Both are correct        2  33.33%',
      'Model B is better       3  50.00%',
    ]);
  });

  it('prints JSON, and refuses the same model twice (1) and an unknown split (2)', async () => {
    const json = await cli('--json', '--split', 'train');
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as {
      model_a: { name: string };
      model_b: { name: string };
      split: string;
      overall: Record<string, { model_b: number }>;
    };
    expect([answer.model_a.name, answer.model_b.name, answer.split]).toEqual([
      'model-a',
      'model-b',
      'train',
    ]);
    expect(answer.overall.accuracy!.model_b).toBeCloseTo(1, 10);
    const same = await runCliAgainst(server, [
      'compare',
      '--dataset',
      name,
      '--model-a',
      'model-a',
      '--model-b',
      'model-a',
    ]);
    expect(same.code).toBe(1);
    expect(same.stderr).toContain(COMPARISON_MESSAGES.sameModel);
    const split = await cli('--split', 'validation');
    expect(split.code).toBe(2);
    expect(split.stderr).toMatch(/--split validation: dataset '.*' has the splits all, /);
  });

  it('prints the same text as the Python SDK', async () => {
    const ours = await cli('--metric', 'macro_f1_score', '--subsets');
    expect(ours.code, ours.stderr).toBe(0);
    expect(ours.stdout).toContain('Subset performance in comparison (split all)\n');
    const python = spawnSync(
      process.env.PYTHON ?? 'python3',
      [
        '-m',
        'loupe',
        '--url',
        server.url,
        '--api-key',
        server.apiKey,
        'compare',
        '--dataset',
        name,
        '--model-a',
        'model-a',
        '--model-b',
        'model-b',
        '--metric',
        'macro_f1_score',
        '--subsets',
      ],
      {
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: join(repositoryRoot, 'sdk/python/src') },
        timeout: 60_000,
      },
    );
    expect(python.status, python.stderr).toBe(0);
    expect(python.stdout).toBe(ours.stdout);
  });
});
