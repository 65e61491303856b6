// The benchmark's server: the SDK's local test server, on SQLite or on a fresh PostgreSQL schema.
import { randomBytes } from 'node:crypto';
import { startLocalServer, type LocalServer } from '@loupe/sdk/testing';
import pg from 'pg';

export type BenchServer = LocalServer;

const pgUrl = process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/test';

async function sql(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: pgUrl });
  await client.connect();
  await client.query(text);
  await client.end();
}

export async function startServer(
  database: 'sqlite' | 'postgres',
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<BenchServer> {
  if (database === 'sqlite') return startLocalServer(env, nodeArgs);
  const schema = `loupe_bench_${randomBytes(4).toString('hex')}`;
  await sql(`create schema ${schema}`);
  const server = await startLocalServer(
    {
      ...env,
      DATABASE_URL: pgUrl,
      LOUPE_DATABASE_SCHEMA: schema,
    },
    nodeArgs,
  );
  return {
    ...server,
    stop: async () => {
      await server.stop();
      await sql(`drop schema ${schema} cascade`);
    },
  };
}
