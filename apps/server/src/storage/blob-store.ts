// Where media and derived files live: a local directory (default) or an S3-compatible bucket.
// Both answer the same calls, so nothing above this file knows which one is in use.
import { createReadStream, promises as fs } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound as S3NotFound,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';

export interface BlobRange {
  start: number;
  end: number; // inclusive
}

export interface BlobInfo {
  size: number;
  contentType: string;
}

export interface BlobStore {
  readonly kind: 'local' | 's3';
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The blob's bytes, or undefined when it does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** A stream of the blob (or one byte range of it), or undefined when it does not exist. */
  stream(key: string, range?: BlobRange): Promise<Readable | undefined>;
  head(key: string): Promise<BlobInfo | undefined>;
  deletePrefix(prefix: string): Promise<number>;
}

/** Keys are slash-separated relative paths; anything that could escape the root is refused. */
export function assertSafeKey(key: string): void {
  if (
    !key ||
    key.startsWith('/') ||
    key.split('/').some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw new Error(`Unsafe blob key: ${key}`);
  }
}

export class LocalBlobStore implements BlobStore {
  readonly kind = 'local' as const;

  /** Folders known to exist: most puts land in a handful of them, so mkdir runs once per folder. */
  private readonly folders = new Set<string>();

  constructor(private readonly root: string) {}

  private path(key: string): string {
    assertSafeKey(key);
    const path = resolve(this.root, key);
    if (!path.startsWith(resolve(this.root) + sep)) throw new Error(`Unsafe blob key: ${key}`);
    return path;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    const path = this.path(key);
    const folder = dirname(path);
    if (!this.folders.has(folder)) await this.makeFolder(folder);
    // Write then rename, so a reader never sees half a file and a crash leaves no torn blob.
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await fs.writeFile(temporary, body);
    } catch (error) {
      // The folder went away since we made it (deletePrefix, or someone outside): make it again.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await this.makeFolder(folder);
      await fs.writeFile(temporary, body);
    }
    await fs.writeFile(`${temporary}.type`, contentType);
    await fs.rename(`${temporary}.type`, `${path}.type`);
    await fs.rename(temporary, path);
  }

  private async makeFolder(folder: string): Promise<void> {
    await fs.mkdir(folder, { recursive: true });
    if (this.folders.size >= 10_000) this.folders.clear();
    this.folders.add(folder);
  }

  async get(key: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(this.path(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async stream(key: string, range?: BlobRange): Promise<Readable | undefined> {
    if (!(await this.head(key))) return undefined;
    return createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    const path = this.path(key);
    try {
      const stat = await fs.stat(path);
      const contentType = await fs
        .readFile(`${path}.type`, 'utf8')
        .catch(() => 'application/octet-stream');
      return { size: stat.size, contentType };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    assertSafeKey(prefix.replace(/\/$/, ''));
    const path = join(this.root, prefix);
    let count: number;
    try {
      const stat = await fs.stat(path);
      if (stat.isDirectory()) {
        const entries = await fs.readdir(path, { recursive: true, withFileTypes: true });
        count = entries.filter((entry) => entry.isFile() && !entry.name.endsWith('.type')).length;
      } else count = 1;
    } catch {
      return 0;
    }
    await fs.rm(path, { recursive: true, force: true });
    this.folders.clear();
    return count;
  }
}

export interface S3Options {
  bucket: string;
  prefix: string;
  client: S3ClientConfig;
}

export class S3BlobStore implements BlobStore {
  readonly kind = 's3' as const;
  private readonly client: S3Client;

  constructor(private readonly options: S3Options) {
    this.client = new S3Client(options.client);
  }

  private key(key: string): string {
    assertSafeKey(key);
    return this.options.prefix ? `${this.options.prefix.replace(/\/$/, '')}/${key}` : key;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(key),
        Body: body,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<Buffer | undefined> {
    const stream = await this.stream(key);
    if (!stream) return undefined;
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async stream(key: string, range?: BlobRange): Promise<Readable | undefined> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.options.bucket,
          Key: this.key(key),
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }),
      );
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  }

  async deletePrefix(prefix: string): Promise<number> {
    let count = 0;
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({
          Bucket: this.options.bucket,
          Prefix: this.key(prefix.replace(/\/$/, '')) + '/',
          ContinuationToken: token,
        }),
      );
      const keys = (page.Contents ?? []).map((object) => ({ Key: object.Key! }));
      if (keys.length > 0) {
        await this.client.send(
          new DeleteObjectsCommand({ Bucket: this.options.bucket, Delete: { Objects: keys } }),
        );
        count += keys.length;
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return count;
  }
}

function isMissing(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return (
    error instanceof S3NotFound ||
    e.name === 'NoSuchKey' ||
    e.name === 'NotFound' ||
    e.$metadata?.httpStatusCode === 404
  );
}

/** Reads `Readable` fully; media served through the API is streamed, this is for small derived files. */
export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

export { Readable };
