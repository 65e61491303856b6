// Embeddings benchmark (issue 7): the points endpoint for 1,000,000 points over HTTP (a stored
// layout inserted through the repository, coloured by label, binary and string formats), and the
// similar-items search over 1,000,000 × 128 vectors on the search thread (exact scan, and the
// approximate index's build and queries). Prints figures and ratios; never fails on time.
// Run: npx tsx --conditions=loupe-src bench/embeddings/points.ts
//   POINTS=… (default 1,000,000), VECTORS=… (default 1,000,000), ANN_VECTORS=… (default 50,000),
//   LOUPE_TEST_DB=postgres to run on PostgreSQL, SKIP_SIMILAR=1 to time the points only.
import os from 'node:os';
import { createRandom } from '@loupe/analysis';
import { api, createClient, decodeIndices, type EmbeddingPointsRequest } from '@loupe/contracts';
import { ComputePool, createRepositories, startLicensedApp } from '@loupe/server/embeddings-bench';

const POINTS = Number(process.env.POINTS ?? 1_000_000);
const VECTORS = Number(process.env.VECTORS ?? 1_000_000);
const ANN_VECTORS = Number(process.env.ANN_VECTORS ?? 50_000);
const DIMENSION = 128;
const RUNS = Number(process.env.RUNS ?? 5);
const CLASSES = ['cat', 'dog', 'bird', 'fish', 'horse', 'cow', 'sheep', 'goat', 'frog', 'bee'];
const rng = createRandom(7);
const random = () => rng.next();

function p50(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

async function timed<T>(fn: () => Promise<T>): Promise<{ result: T; ms: number; cpu: number }> {
  const cpu = process.cpuUsage();
  const start = performance.now();
  const result = await fn();
  const ms = performance.now() - start;
  const used = process.cpuUsage(cpu);
  return { result, ms, cpu: (used.user + used.system) / 1000 };
}

function report(name: string, walls: number[], cpus: number[], target?: number): void {
  const wall = p50(walls);
  const cpu = p50(cpus);
  const ratio =
    target === undefined ? '' : `   target ${target} ms: ${((wall / target) * 100).toFixed(0)}%`;
  console.log(
    `${name.padEnd(56)} ${`${wall.toFixed(0)} ms`.padStart(9)}  CPU ${`${cpu.toFixed(0)} ms`.padStart(8)}${ratio}`,
  );
}

async function benchPoints(): Promise<void> {
  const { t, admin } = await startLicensedApp();
  try {
    const repos = createRepositories(t.database.db, t.database.dialect);
    const { id: datasetId } = await admin.call(api.datasets.create, {
      body: { name: 'Bench', task_type: 'classification', class_names: CLASSES },
    });
    const now = Date.now();
    const ids = Array.from({ length: POINTS }, (_, i) => `sample-${i.toString().padStart(7, '0')}`);
    let start = performance.now();
    for (let i = 0; i < POINTS; i += 5000) {
      await t.database.db.transaction().execute(async (trx) => {
        const batch = createRepositories(trx, t.database.dialect);
        await batch.samples.insert(
          ids.slice(i, i + 5000).map((id, j) => ({
            dataset_id: datasetId,
            id,
            seq: i + j,
            media_type: null,
            media: null,
            split: ['train', 'val', 'test'][(i + j) % 3]!,
            label: CLASSES[Math.floor(random() * CLASSES.length)]!,
            labels: null,
            values: null,
            transcript: null,
            mask: null,
            metadata: null,
            computed: null,
            thumbnail: null,
            processed: true,
            deleted: false,
            created_record_id: null,
            created_at: now,
            updated_at: now,
          })),
        );
      });
    }
    await repos.datasets.update(datasetId, { samples_count: POINTS });
    await repos.datasets.bumpDataVersion(datasetId);
    console.log(
      `inserted ${POINTS} samples in ${((performance.now() - start) / 1000).toFixed(1)} s`,
    );

    // A stored layout: two Gaussian blobs per class, inserted as the job would store it.
    await repos.features.upsert({
      dataset_id: datasetId,
      data_level: 'image',
      name: 'emb',
      dimension: DIMENSION,
      source: 'uploaded',
      created_at: now,
      updated_at: now,
    });
    const coords = new Float32Array(POINTS * 2);
    for (let i = 0; i < coords.length; i++) coords[i] = (random() - 0.5) * 20;
    await repos.embeddings.saveResult(
      {
        dataset_id: datasetId,
        prediction_set_id: '',
        data_level: 'image',
        feature_name: 'emb',
        method_key: 'PCA',
      },
      {
        source_version: now,
        input_hash: 'bench',
        ids,
        coords,
        updated_at: now,
      },
    );

    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    // Over HTTP like the web app, with the answer's size in bytes noted.
    let answerBytes = 0;
    const client = createClient({
      baseUrl: address,
      headers: { cookie: `loupe_session=${admin.cookie}` },
      fetch: async (url, init) => {
        const response = await fetch(url, init);
        answerBytes = Number(response.headers.get('content-length'));
        return response;
      },
    });
    const params = { id: datasetId };
    const post = async (body: Partial<EmbeddingPointsRequest>) => {
      const json = await client.call(api.embeddings.points, {
        params,
        body: {
          data_level: 'image',
          feature_name: 'emb',
          dimensionality_reduction_setting: { method: 'PCA' },
          ...body,
        },
      });
      return { bytes: answerBytes, json };
    };

    start = performance.now();
    await client.call(api.explore.itemIds, { params, body: { data_level: 'image' } });
    console.log(
      `explorer item table built (first item_ids call)            ${(performance.now() - start).toFixed(0)} ms`,
    );

    const binary = { format: 'binary', color_by: 'label' } as const;
    const first = await timed(() => post(binary));
    report('points, binary, first call (layout decode + row map)', [first.ms], [first.cpu]);
    const walls: number[] = [];
    const cpus: number[] = [];
    let last = first.result;
    for (let r = 0; r < RUNS; r++) {
      const run = await timed(() => post(binary));
      walls.push(run.ms);
      cpus.push(run.cpu);
      last = run.result;
    }
    report(`points, binary, coloured by label (p50 of ${RUNS})`, walls, cpus, 1000);
    const rows = decodeIndices(new Uint8Array(Buffer.from(last.json.binary!.rows, 'base64')));
    const legend = last.json.legend;
    console.log(
      `  response ${(last.bytes / 1024 / 1024).toFixed(1)} MB JSON, ${rows.indices.length} points, ${legend?.type === 'categorical' ? legend.categories.length : 0} legend entries`,
    );

    const filtered = await timed(() =>
      post({
        ...binary,
        filter: { type: 'string', metadata_id: 'split', op: 'in', value: ['train'] },
      }),
    );
    report('points, binary, filtered to one split (1/3)', [filtered.ms], [filtered.cpu], 1000);

    const strings: number[] = [];
    const stringCpu: number[] = [];
    let stringBytes = 0;
    for (let r = 0; r < Math.min(RUNS, 3); r++) {
      const run = await timed(() => post({ color_by: 'label' }));
      strings.push(run.ms);
      stringCpu.push(run.cpu);
      stringBytes = run.result.bytes;
    }
    report("points, strings 'id|x|y|colorKey' (p50 of 3)", strings, stringCpu, 1000);
    console.log(`  response ${(stringBytes / 1024 / 1024).toFixed(1)} MB JSON`);
  } finally {
    await t.close();
  }
}

async function benchSimilar(): Promise<void> {
  const pool = new ComputePool();
  try {
    const query = () => {
      const q = new Float32Array(DIMENSION);
      for (let j = 0; j < DIMENSION; j++) q[j] = random() - 0.5;
      return q;
    };
    const vectors = (n: number) => {
      const data = new Float32Array(n * DIMENSION);
      for (let i = 0; i < data.length; i++) data[i] = random() - 0.5;
      return data;
    };
    const search = async (key: string, name: string, target?: number) => {
      const walls: number[] = [];
      const cpus: number[] = [];
      for (let r = 0; r < RUNS; r++) {
        const run = await timed(() =>
          pool.search.run({ kind: 'search', key, query: query(), k: 100 }),
        );
        walls.push(run.ms);
        cpus.push(run.cpu);
      }
      report(name, walls, cpus, target);
    };

    let data = vectors(VECTORS);
    let load = await timed(() =>
      pool.search.run({ kind: 'index', key: 'exact', dimension: DIMENSION, data }, [
        data.buffer as ArrayBuffer,
      ]),
    );
    report(
      `exact index: load ${VECTORS} × ${DIMENSION} into the search thread`,
      [load.ms],
      [load.cpu],
    );
    await search('exact', `similar items, exact scan of ${VECTORS} (k 100, p50)`, 1000);

    data = vectors(ANN_VECTORS);
    load = await timed(() =>
      pool.search.run({ kind: 'index', key: 'ann', dimension: DIMENSION, data, ann: {} }, [
        data.buffer as ArrayBuffer,
      ]),
    );
    const bytes = load.result.serialized?.byteLength ?? 0;
    report(
      `approximate index: build ${ANN_VECTORS} × ${DIMENSION} (${(bytes / 1024 / 1024).toFixed(0)} MB)`,
      [load.ms],
      [load.cpu],
    );
    await search('ann', `similar items, approximate index of ${ANN_VECTORS} (k 100, p50)`, 1000);
  } finally {
    await pool.close();
  }
}

console.log(
  `embeddings bench on ${process.env.LOUPE_TEST_DB ?? 'sqlite'}: ${os.cpus().length} CPUs, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; CPU times are this process's (the search thread's work counts)`,
);
await benchPoints();
if (process.env.SKIP_SIMILAR !== '1') await benchSimilar();
process.exit(0);
