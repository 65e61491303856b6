// A real S3-protocol server on loopback for tests: moto's standalone server (python3 -m moto.server).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Moto {
  endpoint: string;
  stop(): Promise<void>;
  createBucket(name: string): Promise<void>;
}

export const S3_TEST_ENV = {
  AWS_ACCESS_KEY_ID: 'test',
  AWS_SECRET_ACCESS_KEY: 'test',
  AWS_REGION: 'us-east-1',
};

export async function startMoto(): Promise<Moto> {
  Object.assign(process.env, S3_TEST_ENV);
  const port = await freePort();
  const child: ChildProcess = spawn(
    'python3',
    ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)],
    { stdio: 'ignore' },
  );
  const endpoint = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${endpoint}/moto-api/`)).status < 500) break;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (i === 199) throw new Error('moto.server did not start');
  }
  const client = new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  return {
    endpoint,
    createBucket: async (name) => {
      await client.send(new CreateBucketCommand({ Bucket: name }));
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
