// Where media and derived files live: a local directory (default) or an S3-compatible bucket.
// Both answer the same calls, so nothing above this file knows which one is in use.
import { createWriteStream, promises as fs } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NotFound as S3NotFound,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
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
  /**
   * Writes a stream under `key` as it arrives, holding at most a few megabytes of it in memory.
   * When the stream fails (an aborted upload, a size limit), nothing of it is left behind.
   */
  putStream(key: string, body: Readable, contentType: string): Promise<void>;
  /** Moves a blob (bytes and content type) to another key, replacing whatever was there. */
  move(from: string, to: string): Promise<void>;
  /** Deletes one blob; a missing one is not an error. */
  delete(key: string): Promise<void>;
  /** The blob's bytes, or undefined when it does not exist. */
  get(key: string): Promise<Buffer | undefined>;
  /** A stream of the blob (or one byte range of it), or undefined when it does not exist. */
  stream(key: string, range?: BlobRange): Promise<Readable | undefined>;
  /**
   * The blob's size and content type, or undefined when it does not exist. A caller that knows
   * the type already passes it, and a store that keeps types apart does not read them then.
   */
  head(key: string, knownType?: string): Promise<BlobInfo | undefined>;
  deletePrefix(prefix: string): Promise<number>;
}

/** Deletes a file unless it is already gone (fs.rm would walk it as a tree first). */
async function unlinkIfPresent(path: string): Promise<void> {
  await fs.unlink(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
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

  async putStream(key: string, body: Readable, contentType: string): Promise<void> {
    const path = this.path(key);
    const folder = dirname(path);
    if (!this.folders.has(folder)) await this.makeFolder(folder);
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      await pipeline(body, createWriteStream(temporary));
      await fs.writeFile(`${temporary}.type`, contentType);
    } catch (error) {
      await Promise.all([
        fs.rm(temporary, { force: true }),
        fs.rm(`${temporary}.type`, { force: true }),
      ]);
      throw error;
    }
    await fs.rename(`${temporary}.type`, `${path}.type`);
    await fs.rename(temporary, path);
  }

  async move(from: string, to: string): Promise<void> {
    const [source, target] = [this.path(from), this.path(to)];
    const folder = dirname(target);
    if (!this.folders.has(folder)) await this.makeFolder(folder);
    // The type first: a reader that finds the bytes under the new key also finds their type.
    await fs.copyFile(`${source}.type`, `${target}.type`).catch(() => {});
    await fs.rename(source, target);
    await unlinkIfPresent(`${source}.type`);
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    await Promise.all([unlinkIfPresent(path), unlinkIfPresent(`${path}.type`)]);
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
    // Opening is the existence check: one system call, not a stat and a type read first.
    let handle: fs.FileHandle;
    try {
      handle = await fs.open(this.path(key), 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
    return handle.createReadStream(range ? { start: range.start, end: range.end } : {});
  }

  async head(key: string, knownType?: string): Promise<BlobInfo | undefined> {
    const path = this.path(key);
    try {
      const stat = await fs.stat(path);
      const contentType =
        knownType ??
        (await fs.readFile(`${path}.type`, 'utf8').catch(() => 'application/octet-stream'));
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

/** Size of the parts a streamed S3 upload is sent in (S3 wants at least 5 MB but for the last). */
const S3_PART_BYTES = 8 * 1024 * 1024;

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

  async putStream(key: string, body: Readable, contentType: string): Promise<void> {
    const target = { Bucket: this.options.bucket, Key: this.key(key) };
    let uploadId: string | undefined;
    const parts: { ETag?: string; PartNumber: number }[] = [];
    const sendPart = async (bytes: Buffer) => {
      uploadId ??= (
        await this.client.send(
          new CreateMultipartUploadCommand({ ...target, ContentType: contentType }),
        )
      ).UploadId;
      const PartNumber = parts.length + 1;
      const { ETag } = await this.client.send(
        new UploadPartCommand({ ...target, UploadId: uploadId, PartNumber, Body: bytes }),
      );
      parts.push({ ETag, PartNumber });
    };
    try {
      // Parts of S3_PART_BYTES: the stream waits while one is sent, so memory stays at one part.
      let chunks: Buffer[] = [];
      let buffered = 0;
      for await (const chunk of body) {
        const bytes = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
        chunks.push(bytes);
        buffered += bytes.length;
        if (buffered >= S3_PART_BYTES) {
          await sendPart(Buffer.concat(chunks));
          chunks = [];
          buffered = 0;
        }
      }
      const rest = Buffer.concat(chunks);
      if (uploadId === undefined) {
        // Small enough for one request.
        await this.client.send(
          new PutObjectCommand({ ...target, Body: rest, ContentType: contentType }),
        );
        return;
      }
      if (rest.length > 0) await sendPart(rest);
      await this.client.send(
        new CompleteMultipartUploadCommand({
          ...target,
          UploadId: uploadId,
          MultipartUpload: { Parts: parts },
        }),
      );
    } catch (error) {
      if (uploadId !== undefined)
        await this.client
          .send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId }))
          .catch(() => {});
      throw error;
    }
  }

  async move(from: string, to: string): Promise<void> {
    const source = this.key(from);
    await this.client.send(
      new CopyObjectCommand({
        Bucket: this.options.bucket,
        Key: this.key(to),
        CopySource: `${this.options.bucket}/${source.split('/').map(encodeURIComponent).join('/')}`,
      }),
    );
    await this.delete(from);
  }

  async delete(key: string): Promise<void> {
    await this.client.send(
      new DeleteObjectCommand({ Bucket: this.options.bucket, Key: this.key(key) }),
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
