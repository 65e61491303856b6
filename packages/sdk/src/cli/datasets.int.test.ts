// The `loupe` CLI and TypeScript client against a real, built server.
import { mkdirSync, mkdtempSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encode as encodePng } from 'fast-png';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoupeClient } from '../client/client.js';
import { LoupeError } from '../client/errors.js';
import { startLocalServer, type LocalServer } from '../testing/local-server.js';
import { runCliAgainst } from '../testing/cli.js';

let server: LocalServer;
beforeAll(async () => {
  server = await startLocalServer();
}, 60_000);
afterAll(() => server?.stop());

const cli = (...args: string[]) => runCliAgainst(server, args);
const cliAt = (url: string, ...args: string[]) =>
  runCliAgainst({ url, apiKey: server.apiKey }, args);

/** A proxy in front of the server that writes down every request the CLI makes. */
async function recordingProxy(): Promise<{ url: string; requests: string[]; close(): void }> {
  const requests: string[] = [];
  const proxy = createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const answer = await fetch(`${server.url}${request.url}`, {
          method: request.method,
          headers: Object.fromEntries(
            ['x-api-key', 'authorization', 'content-type'].flatMap((name) => {
              const value = request.headers[name];
              return typeof value === 'string' ? [[name, value]] : [];
            }),
          ),
          ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
        });
        response.writeHead(answer.status, {
          'content-type': answer.headers.get('content-type') ?? 'application/octet-stream',
        });
        response.end(Buffer.from(await answer.arrayBuffer()));
      })();
    });
  });
  await new Promise<void>((listening) => proxy.listen(0, '127.0.0.1', listening));
  const { port } = proxy.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => proxy.close() };
}

function png(seed: number, width = 16, height = 12): Uint8Array {
  const data = new Uint8Array(width * height * 3).map((_, i) => (i * 37 + seed * 101) % 256);
  return encodePng({ width, height, data, channels: 3, depth: 8 });
}

function folder(files: Record<string, string | Uint8Array>): string {
  const root = mkdtempSync(join(tmpdir(), 'loupe-cli-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), content);
  }
  return root;
}

describe('loupe import folder', () => {
  it('imports the CSV layout with metadata, and importing again changes nothing', async () => {
    const root = folder({
      'dataset.yaml': 'class_names: [cat, dog]\n',
      'train.csv': 'image,label,weather,hour\nimg/a.png,cat,sunny,9\nimg/b.png,dog,rain,21\n',
      'test.csv': 'image,label,weather,hour\nimg/c.png,cat,fog,3\n',
      'img/a.png': png(1),
      'img/b.png': png(2),
      'img/c.png': png(3),
    });
    const first = await cli(
      'import',
      'folder',
      root,
      '--name',
      'Pets CSV',
      '--task',
      'classification',
    );
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ layout: 'csv', samples: 3, created: 3 });
    const refused = await cli(
      'import',
      'folder',
      root,
      '--name',
      'Pets CSV',
      '--task',
      'classification',
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "A dataset named 'Pets CSV' already exists. Add --exist-ok to import into it",
    );
    const again = await cli(
      'import',
      'folder',
      root,
      '--name',
      'Pets CSV',
      '--task',
      'classification',
      '--exist-ok',
    );
    expect(again.stderr).toBe('');
    expect(JSON.parse(again.stdout)).toMatchObject({ created: 0, unchanged: 3 });
    const dataset = await new LoupeClient({ url: server.url, apiKey: server.apiKey }).dataset(
      'Pets CSV',
    );
    expect(dataset.info).toMatchObject({
      samples_count: 3,
      class_names: ['cat', 'dog'],
      splits: ['test', 'train'],
    });
  });

  it('imports the COCO layout with objects', async () => {
    const coco = {
      images: [
        { id: 1, file_name: 'x.png', width: 16, height: 12 },
        { id: 2, file_name: 'y.png', width: 16, height: 12 },
      ],
      categories: [
        { id: 7, name: 'car' },
        { id: 9, name: 'bus' },
      ],
      annotations: [
        { id: 1, image_id: 1, category_id: 7, bbox: [1, 1, 5, 5], iscrowd: 0 },
        {
          id: 2,
          image_id: 1,
          category_id: 9,
          bbox: [2, 2, 4, 4],
          segmentation: [[2, 2, 6, 2, 6, 6]],
          iscrowd: 0,
        },
        { id: 3, image_id: 2, category_id: 7, bbox: [0, 0, 3, 3], iscrowd: 0 },
      ],
    };
    const root = folder({
      'annotations/instances_val.json': JSON.stringify(coco),
      'images/val/x.png': png(4),
      'images/val/y.png': png(5),
    });
    const result = await cli(
      'import',
      'coco',
      root,
      '--name',
      'Cars',
      '--task',
      'object_detection',
    );
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ layout: 'coco', samples: 2, created: 2 });
    const dataset = await new LoupeClient({ url: server.url, apiKey: server.apiKey }).dataset(
      'Cars',
    );
    expect(dataset.info).toMatchObject({
      objects_count: 3,
      class_names: ['car', 'bus'],
      splits: ['val'],
    });
  });

  it('imports named splits and prediction sets from a folder with other CSVs beside', async () => {
    const files = {
      'dataset.yaml': 'class_names: [cat, dog]\n',
      'train.csv': 'image,label\nimg/a.png,cat\nimg/b.png,dog\n',
      'test.csv': 'image,label\nimg/c.png,cat\n',
      'predictions_A.csv':
        'id,label,score,cat,dog\nimg/a.png,cat,0.9,0.9,0.1\nimg/b.png,cat,0.6,0.6,0.4\nimg/c.png,dog,0.7,0.3,0.7\n',
      'features.csv': 'image,f0,f1\nimg/a.png,0.1,0.2\n',
      'img/a.png': png(11),
      'img/b.png': png(12),
      'img/c.png': png(13),
    };
    const root = folder(files);
    const refused = await cli(
      'import',
      'folder',
      root,
      '--name',
      'Beside',
      '--task',
      'classification',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'features.csv is not a sample file (it has no label column); predictions_A.csv is not a sample file (its name says predictions): name the sample files with --splits or in dataset.yaml, or import predictions with --predictions NAME=FILE',
    );
    const imported = await cli(
      'import',
      'folder',
      root,
      '--name',
      'Beside',
      '--task',
      'classification',
      '--splits',
      'train=train.csv,test=test.csv',
      '--predictions',
      'A=predictions_A.csv',
    );
    expect(imported.stderr).toBe('');
    expect(JSON.parse(imported.stdout)).toMatchObject({
      samples: 3,
      created: 3,
      prediction_sets: [{ name: 'A', created: 3 }],
    });
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
    expect((await client.dataset('Beside')).info).toMatchObject({
      samples_count: 3,
      splits: ['test', 'train'],
      predictions_count: 1,
    });

    // The same splits named in dataset.yaml; a prediction for a sample not in the folder is
    // refused before anything is sent.
    const yamlRoot = folder({
      ...files,
      'dataset.yaml': 'class_names: [cat, dog]\nsplits: {train: train.csv, test: test.csv}\n',
      'predictions_B.csv': 'image,label\nimg/z.png,cat\n',
    });
    const stray = await cli(
      'import',
      'folder',
      yamlRoot,
      '--name',
      'Beside YAML',
      '--task',
      'classification',
      '--predictions',
      'A=predictions_A.csv',
      '--predictions',
      'B=predictions_B.csv',
    );
    expect(stray.code).toBe(2);
    expect(stray.stderr).toContain(
      "predictions_B.csv:2: no sample of the folder has the id 'img/z.png'",
    );
    expect((await client.datasets()).some((d) => d.name === 'Beside YAML')).toBe(false);
    const fromYaml = await cli(
      'import',
      'folder',
      yamlRoot,
      '--name',
      'Beside YAML',
      '--task',
      'classification',
      '--predictions',
      'A=predictions_A.csv',
    );
    expect(fromYaml.stderr).toBe('');
    expect(JSON.parse(fromYaml.stdout)).toMatchObject({
      created: 3,
      prediction_sets: [{ name: 'A', created: 3 }],
    });
    expect((await client.dataset('Beside YAML')).info.splits).toEqual(['test', 'train']);
  });

  it('says what is wrong with bad input (exit 2) and with rows the server refuses (exit 1)', async () => {
    const missing = await cli(
      'import',
      'folder',
      '/nonexistent/folder',
      '--name',
      'x',
      '--task',
      'classification',
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('/nonexistent/folder: not a folder');
    const badTask = await cli('import', 'folder', '/tmp', '--name', 'x', '--task', 'painting');
    expect(badTask.code).toBe(2);
    expect(badTask.stderr).toContain('--task must be one of classification');
    const noMedia = folder({
      'dataset.yaml': 'class_names: [cat]\n',
      'train.csv': 'image,label\nmissing.png,cat\n',
    });
    const gone = await cli('import', 'folder', noMedia, '--name', 'x', '--task', 'classification');
    expect(gone.code).toBe(2);
    expect(gone.stderr).toContain(
      `train.csv:2 (id missing.png), image: ${join(noMedia, 'missing.png')} does not exist`,
    );

    const rows = folder({
      'first.jsonl': '{"id":"a","label":"cat"}\n',
      'rows.jsonl': '{"id":"a","label":"cat"}\n{"id":"b","label":"cow"}\n',
    });
    const local = await cli(
      'upload',
      'samples',
      join(rows, 'rows.jsonl'),
      '--dataset',
      'Strict',
      '--task',
      'classification',
      '--class-names',
      'cat,dog',
    );
    // Classes given on the command line are known here, so the row is refused before sending.
    expect(local.code).toBe(2);
    expect(local.stderr).toContain(
      "rows.jsonl:2 (id b), label: 'cow' is not one of the dataset's class names",
    );
    const created = await cli(
      'upload',
      'samples',
      join(rows, 'first.jsonl'),
      '--dataset',
      'Strict',
      '--task',
      'classification',
      '--class-names',
      'cat,dog',
    );
    expect(created.code, created.stderr).toBe(0);
    // An existing dataset's closed class list is the server's to check.
    const refused = await cli('upload', 'samples', join(rows, 'rows.jsonl'), '--dataset', 'Strict');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "row 1 (id b), label: 'cow' is not one of the dataset's class names",
    );
  });
});

describe('checking the whole upload before sending anything', () => {
  it('refuses a folder whose later rows are bad, naming file, row and field, and sends nothing', async () => {
    const root = folder({
      'dataset.yaml': 'class_names: [cat, dog]\n',
      'train.csv': 'image,label\nimg/a.png,cat\nimg/b.png,dog\nimg/c.png,cow\nimg/gone.png,cat\n',
      'img/a.png': png(11),
      'img/b.png': png(12),
      'img/c.png': png(13),
    });
    const proxy = await recordingProxy();
    try {
      const result = await cliAt(
        proxy.url,
        'import',
        'folder',
        root,
        '--name',
        'Checked first',
        '--task',
        'classification',
      );
      expect(result.code).toBe(2);
      const csv = join(root, 'train.csv');
      expect(result.stderr).toBe(
        `loupe: nothing was sent: 2 problems to fix first\n` +
          `  ${csv}:4 (id img/c.png), label: 'cow' is not one of the dataset's class names\n` +
          `  ${csv}:5 (id img/gone.png), image: ${join(root, 'img/gone.png')} does not exist\n`,
      );
      expect(proxy.requests).toEqual([]);
    } finally {
      proxy.close();
    }
    const names = (
      await new LoupeClient({ url: server.url, apiKey: server.apiKey }).datasets()
    ).map((d) => d.name);
    expect(names).not.toContain('Checked first');
  });

  it('refuses JSON Lines with a misspelt key or a file over the size limit before any media goes up', async () => {
    const root = folder({
      'samples.jsonl': [
        '{"id":"a","image":"a.png","label":"cat"}',
        '{"id":"b","image":"b.png","lable":"dog"}',
        '{"id":"c","image":"huge.png","label":"dog"}',
      ].join('\n'),
      'a.png': png(14),
      'b.png': png(15),
      'huge.png': '',
    });
    // A sparse file: 201 MB on paper, nothing on disk.
    truncateSync(join(root, 'huge.png'), 201 * 1024 * 1024);
    const proxy = await recordingProxy();
    try {
      const result = await cliAt(
        proxy.url,
        'upload',
        'samples',
        join(root, 'samples.jsonl'),
        '--dataset',
        'Typos',
        '--task',
        'classification',
      );
      expect(result.code).toBe(2);
      const file = join(root, 'samples.jsonl');
      expect(result.stderr).toContain(
        `  ${file}:2 (id b), lable: unknown key 'lable': did you mean 'label'? Values of your own go in metadata`,
      );
      expect(result.stderr).toContain(
        `  ${file}:3 (id c), image: ${join(root, 'huge.png')} is 201 MB; a media file may be at most 200 MB`,
      );
      // Only the read-only look-up of the dataset reached the server.
      expect(proxy.requests).toEqual(['GET /api/datasets']);
    } finally {
      proxy.close();
    }
  });

  it('documents --exist-ok in the help of both import commands', async () => {
    for (const layout of ['folder', 'coco']) {
      const help = await cli('import', layout, '--help');
      expect(help.code).toBe(0);
      expect(help.stdout).toContain('[--exist-ok]');
      expect(help.stdout).toContain('--exist-ok    import into the dataset NAME');
    }
  });
});

describe('loupe upload and demo', () => {
  it('uploads samples with media files and predictions from JSON Lines', async () => {
    const root = folder({
      'samples.jsonl': [
        '{"id":"one","image":"one.png","label":"cat"}',
        '{"id":"two","image":"two.png","label":"dog","metadata":{"hour":3}}',
      ].join('\n'),
      'predictions.jsonl':
        '{"id":"one","label":"cat","score":0.9}\n{"id":"two","label":"cat","score":0.6}\n',
      'one.png': png(6),
      'two.png': png(7),
    });
    const samples = await cli(
      'upload',
      'samples',
      join(root, 'samples.jsonl'),
      '--dataset',
      'Uploaded',
      '--task',
      'classification',
    );
    expect(JSON.parse(samples.stdout)).toMatchObject({ created: 2 });
    const predictions = await cli(
      'upload',
      'predictions',
      join(root, 'predictions.jsonl'),
      '--dataset',
      'Uploaded',
      '--name',
      'resnet',
    );
    expect(JSON.parse(predictions.stdout)).toMatchObject({ name: 'resnet', created: 2 });
    const dataset = await new LoupeClient({ url: server.url, apiKey: server.apiKey }).dataset(
      'Uploaded',
    );
    expect(dataset.info.predictions_count).toBe(1);
  });

  it('generates and uploads a demo dataset', async () => {
    const result = await cli('demo', '--samples', '4', '--task', 'object_detection');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual({ datasets: ['Demo · Shape detection'] });
    const dataset = await new LoupeClient({ url: server.url, apiKey: server.apiKey }).dataset(
      'Demo · Shape detection',
    );
    expect(dataset.info).toMatchObject({ samples_count: 4, predictions_count: 2 });
    expect(dataset.info.objects_count).toBeGreaterThan(0);
  });
});

describe('the TypeScript client', () => {
  it('uploads features as float32 and reports presence', async () => {
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey });
    const dataset = await client.createDataset({ name: 'Vectors', task_type: 'classification' });
    await dataset.uploadSamples([{ id: 'a' }, { id: 'b' }]);
    const info = await dataset.uploadFeatures('clip', { a: [0.5, 1.5], b: [2.5, 3.5] });
    expect(info).toMatchObject({
      name: 'clip',
      size: 2,
      num_present: 2,
      num_missing: 0,
      data_level: 'image',
    });
  });

  it('gives up on an unreachable server with a clear error after retrying', async () => {
    const client = new LoupeClient({
      url: 'http://127.0.0.1:9',
      apiKey: 'x',
      retries: 3,
      backoffMs: 10,
    });
    const error = await client.datasets().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(LoupeError);
    expect((error as LoupeError).message).toMatch(/^Cannot reach http:\/\/127\.0\.0\.1:9/);
  });

  it('keeps two batches in flight, uploads media meanwhile, and sends nothing after a refused one', async () => {
    const events: string[] = [];
    let secondAnswered: () => void = () => undefined;
    const whenSecondAnswered = new Promise<void>((resolve) => (secondAnswered = resolve));
    let samplesPosts = 0;
    const watching: typeof fetch = async (input, init) => {
      const url = String(input);
      if (url.endsWith('/samples') && init?.method === 'POST') {
        const post = ++samplesPosts;
        events.push(`samples ${post} sent`);
        // The first batch stays in flight until the second one has been sent and answered (or
        // 5 s, after which the checks below fail): a client that waits for each answer before
        // sending the next batch never gets there.
        if (post === 1)
          await Promise.race([whenSecondAnswered, new Promise((r) => setTimeout(r, 5000))]);
        const response = await fetch(input, init);
        events.push(`samples ${post} answered ${response.status}`);
        if (post === 2) secondAnswered();
        return response;
      }
      if (url.endsWith('/media/missing')) events.push('media');
      return fetch(input, init);
    };
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey, fetch: watching });
    const dataset = await client.createDataset({
      name: 'Pipelined',
      task_type: 'classification',
      class_names: ['cat'],
    });
    const progress: number[] = [];
    const samples = [
      { id: 'a', image: png(1), label: 'cat' },
      { id: 'b', image: png(2), label: 'cat' },
      { id: 'c', image: png(3), label: 'dog' }, // refused: not a class name
      { id: 'd', image: png(4), label: 'cat' },
      { id: 'e', image: png(5), label: 'cat' },
      { id: 'f', image: png(6), label: 'cat' },
    ];
    const error = (await dataset
      .uploadSamples(samples, { batchSize: 2, onProgress: ({ done }) => progress.push(done) })
      .catch((e: unknown) => e)) as LoupeError;
    expect(error.errors).toEqual([
      { row: 2, id: 'c', field: 'label', message: "'dog' is not one of the dataset's class names" },
    ]);
    expect(events.filter((event) => event !== 'media')).toEqual([
      'samples 1 sent',
      'samples 2 sent', // while the first batch is in flight
      'samples 2 answered 400',
      'samples 1 answered 200', // the batch in flight beside the refused one still lands
    ]);
    // The second batch's media went up before it was sent, while the first batch was in flight;
    // the third batch's media may have gone up too, but the batch itself is never sent.
    expect(events.indexOf('media', events.indexOf('samples 1 sent'))).toBeLessThan(
      events.indexOf('samples 2 sent'),
    );
    expect(progress).toEqual([2]);
    expect((await client.dataset(dataset.id)).info.samples_count).toBe(2);
  });

  it('does not retry input errors and keeps the row errors', async () => {
    let calls = 0;
    const counting: typeof fetch = (input, init) => {
      calls++;
      return fetch(input, init);
    };
    const client = new LoupeClient({ url: server.url, apiKey: server.apiKey, fetch: counting });
    const dataset = await client.createDataset({
      name: 'Strict two',
      task_type: 'classification',
      class_names: ['cat'],
    });
    calls = 0;
    const error = (await dataset
      .uploadSamples([{ id: 'a', label: 'dog' }])
      .catch((e: unknown) => e)) as LoupeError;
    expect(calls).toBe(1);
    expect(error.status).toBe(400);
    expect(error.errors).toEqual([
      { row: 0, id: 'a', field: 'label', message: "'dog' is not one of the dataset's class names" },
    ]);
  });
});
