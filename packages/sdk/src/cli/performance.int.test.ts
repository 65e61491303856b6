// `loupe performance` and LoupeClient.performance against a real, built server, on a dataset
// whose metrics are worked out by hand, and the Python SDK's `loupe performance` printing the
// same text for the same model.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import type { StatisticsResponse } from '@loupe/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoupeClient, type DatasetHandle } from '../client/client.js';
import { repositoryRoot, startLocalServer, type LocalServer } from '../testing/local-server.js';
import { createCatsAndDogs } from '../testing/cats-and-dogs.js';
import { runCliAgainst } from '../testing/cli.js';

// Six images, classes cat and dog; the model predicts, per split:
//   train: a cat→cat, b cat→dog, c dog→dog
//   test:  d dog→dog, e cat→dog, f dog→(no prediction: counts as wrong)
// accuracy: all 3/6, train 2/3, test 1/3.
// all, cat: truth {a,b,e}, predicted cat {a}: precision 1, recall 1/3, F1 1/2.
// all, dog: truth {c,d,f}, predicted dog {b,c,d,e}: precision 2/4, recall 2/3, F1 4/7.
// macro F1: all (1/2 + 4/7)/2 = 15/28, train (2/3 + 2/3)/2.
// The subset {a, b, e} (all cats): accuracy 1/3 in 'all', 1/2 in 'train' (a, b).
const SAMPLES: [id: string, split: string, label: string, predicted: string | null][] = [
  ['a', 'train', 'cat', 'cat'],
  ['b', 'train', 'cat', 'dog'],
  ['c', 'train', 'dog', 'dog'],
  ['d', 'test', 'dog', 'dog'],
  ['e', 'test', 'cat', 'dog'],
  ['f', 'test', 'dog', null],
];

let server: LocalServer;
let client: LoupeClient;
let dataset: DatasetHandle;
const name = `perf-${Date.now()}`;

beforeAll(async () => {
  server = await startLocalServer();
  client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
  dataset = await createCatsAndDogs(client, name, SAMPLES, [
    { name: 'resnet', labels: SAMPLES.map(([, , , predicted]) => predicted), score: 0.9 },
  ]);
}, 60_000);
afterAll(() => server?.stop());

const cli = (...args: string[]) =>
  runCliAgainst(server, ['performance', '--dataset', name, ...args]);

const valueOf = (statistics: StatisticsResponse, metric: string, split: string) =>
  statistics.statistics
    .find((s) => s.metric_name === metric)
    ?.values.find((v) => v.split_name === split)?.value;

describe('LoupeClient.performance', () => {
  it('answers the numbers worked out by hand, waiting while they are computed', async () => {
    const model = await dataset.predictionSet('resnet');
    const { statistics, overall, subsets } = await client.performance(dataset.id, model.id, {
      subsets: true,
      timeoutMs: 120_000,
    });
    expect(statistics.status).toBe('ready');
    expect(statistics.splits[0]).toBe('all');
    expect([...statistics.splits.slice(1)].sort()).toEqual(['test', 'train']);
    expect([statistics.num_items, statistics.num_missing]).toEqual([6, 1]);
    expect(valueOf(statistics, 'accuracy', 'all')).toBeCloseTo(3 / 6, 10);
    expect(valueOf(statistics, 'accuracy', 'train')).toBeCloseTo(2 / 3, 10);
    expect(valueOf(statistics, 'accuracy', 'test')).toBeCloseTo(1 / 3, 10);
    expect(valueOf(statistics, 'macro_f1_score', 'all')).toBeCloseTo(15 / 28, 10);
    expect(valueOf(statistics, 'macro_f1_score', 'train')).toBeCloseTo(2 / 3, 10);

    expect(overall.primary_key).toBe('class');
    const all = overall.splits.find((s) => s.split_name === 'all')!.rows;
    const row = (key: string) => all.find((r) => r.key === key)!.values;
    expect(row('cat').precision).toBeCloseTo(1, 10);
    expect(row('cat').recall).toBeCloseTo(1 / 3, 10);
    expect(row('cat').f1_score).toBeCloseTo(1 / 2, 10);
    expect(row('dog').precision).toBeCloseTo(2 / 4, 10);
    expect(row('dog').recall).toBeCloseTo(2 / 3, 10);
    expect(row('dog').f1_score).toBeCloseTo(4 / 7, 10);
    expect(row('dog').count).toBe(3);

    const entries = Object.values(subsets!.performance_per_subset);
    expect(entries.map((e) => e.subset.name)).toEqual(['Cats']);
    expect(entries[0]!.performance_per_metric.accuracy).toBeCloseTo(1 / 3, 10);
    const train = await model.performance({ subsets: true, split: 'train' });
    expect(
      Object.values(train.subsets!.performance_per_subset)[0]!.performance_per_metric.accuracy,
    ).toBeCloseTo(1 / 2, 10);
  });
});

describe('loupe performance', () => {
  it('prints the statistics per split and the table per class', async () => {
    const { code, stdout, stderr } = await cli('--model', 'resnet', '--subsets');
    expect(code, stderr).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`Performance of model 'resnet' on dataset '${name}' (classification)`);
    expect(lines[1]).toBe('6 items, 1 without a prediction');
    const splits = lines[lines.indexOf('Statistics') + 1]!.split(/\s+/).slice(1);
    const accuracy: Record<string, string> = { all: '50.00%', train: '66.67%', test: '33.33%' };
    const line = (start: string) => lines.find((l) => l.startsWith(start))!.split(/\s+/);
    expect(line('Accuracy ').slice(1)).toEqual(splits.map((s) => accuracy[s]));
    expect(line('Macro F1 ').slice(2, 3)).toEqual(['53.57%']); // 15/28 in 'all'
    expect(line('cat ')).toContain('50.00%');
    expect(line('dog ')).toContain('57.14%');
    expect(stdout).toContain('Subset performance (split all)');
    expect(line('Cats ').slice(0, 4)).toEqual(['Cats', 'image', '3/3', '33.33%']);
  });

  it('prints JSON, and the table of another split', async () => {
    const json = await cli('--model', 'resnet', '--json', '--split', 'train');
    expect(json.code, json.stderr).toBe(0);
    const answer = JSON.parse(json.stdout) as {
      model: { name: string };
      split: string;
      statistics: StatisticsResponse;
    };
    expect(answer.model.name).toBe('resnet');
    expect(answer.split).toBe('train');
    expect(valueOf(answer.statistics, 'accuracy', 'test')).toBeCloseTo(1 / 3, 10);
    const text = await cli('--model', 'resnet', '--split', 'train');
    expect(text.stdout).toContain('Overall performance per class (split train)');
  });

  it('refuses an unknown split (2) and an unknown model (1)', async () => {
    const split = await cli('--model', 'resnet', '--split', 'validation');
    expect(split.code).toBe(2);
    expect(split.stderr).toMatch(/--split validation: dataset '.*' has the splits all, /);
    const model = await cli('--model', 'no-such-model');
    expect(model.code).toBe(1);
    expect(model.stderr).toContain("No prediction set (model) with id or name 'no-such-model'");
  });

  it('prints the same text as the Python SDK', async () => {
    const ours = await cli('--model', 'resnet', '--subsets');
    const python = spawnSync(
      process.env.PYTHON ?? 'python3',
      [
        '-m',
        'loupe',
        '--url',
        server.url,
        '--api-key',
        server.apiKey,
        'performance',
        '--dataset',
        name,
        '--model',
        'resnet',
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
