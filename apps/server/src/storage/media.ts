// Resolves what a sample's media field names — an uploaded blob, an http(s) URL, or a file under
// LOUPE_MEDIA_ROOTS — and reads its bytes for processing. A URL is fetched once, through the
// outbound guard, into the blob store; a path must still be under a root once links are followed.
import { createHash } from 'node:crypto';
import { constants, promises as fs, realpathSync } from 'node:fs';
import { isAbsolute, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { OutboundError, type Outbound } from '../platform/outbound.js';
import type { BlobStore } from './blob-store.js';

export const BLOB_PREFIX = 'blob:';

/** What a caller learns of any refused or failed media URL; the reason goes to the log. */
export const MEDIA_URL_FAILED = 'The media URL could not be fetched.';

export function mediaKey(datasetId: string, sha256: string): string {
  return `datasets/${datasetId}/media/${sha256}`;
}

/** Where the bytes fetched from a media URL are kept (per dataset, like uploads). */
export function urlMediaKey(datasetId: string, url: string): string {
  return `datasets/${datasetId}/url-media/${createHash('sha256').update(url).digest('hex')}`;
}

export function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export type MediaKind = 'blob' | 'url' | 'path';

export function mediaKind(ref: string): MediaKind {
  if (ref.startsWith(BLOB_PREFIX)) return 'blob';
  if (/^https?:\/\//i.test(ref)) return 'url';
  return 'path';
}

export interface MediaResolverOptions {
  /** LOUPE_MEDIA_ROOTS. */
  roots: string[];
  /** The largest file read from a root or a URL. */
  maxBytes: number;
  outbound: Outbound;
  log: { warn(details: object, message: string): void };
}

export class MediaResolver {
  /** Roots with their links followed; a root that does not exist yet is looked up again. */
  private readonly realRoots = new Map<string, string>();
  /** Fetches under way, so two jobs reading the same new URL fetch it once. */
  private readonly fetching = new Map<string, Promise<Buffer>>();

  constructor(
    private readonly blobs: BlobStore,
    private readonly options: MediaResolverOptions,
  ) {}

  /** Why a reference cannot be used at upload time, or undefined when it can. */
  problem(ref: string, uploaded: Set<string>): string | undefined {
    switch (mediaKind(ref)) {
      case 'blob': {
        const hash = ref.slice(BLOB_PREFIX.length);
        if (!/^[0-9a-f]{64}$/.test(hash))
          return `'${ref}' is not a blob reference (blob:<sha256 hex>)`;
        return uploaded.has(hash)
          ? undefined
          : `${ref} was not uploaded to this dataset: upload it with POST /api/datasets/{id}/media first`;
      }
      case 'url':
        return URL.canParse(ref) ? undefined : `'${ref}' is not a valid URL`;
      case 'path': {
        // Synchronous because the batch check is; one realpath(3) per row, and only on instances
        // that set LOUPE_MEDIA_ROOTS.
        const path = absolutePath(ref);
        let real: string | undefined;
        try {
          real = path && this.options.roots.length > 0 ? realpathSync.native(path) : undefined;
        } catch {
          real = undefined;
        }
        return real && this.underRoot(real)
          ? undefined
          : `the server may not read '${ref}': only existing files under LOUPE_MEDIA_ROOTS (${this.options.roots.join(':') || 'none set'}) can be referenced by path; upload the file instead`;
      }
    }
  }

  /**
   * Whether a path with every link followed lies under a root with its links followed: a
   * symbolic link inside a root that points outside it is outside.
   */
  private underRoot(real: string): boolean {
    return this.options.roots.some((root) => {
      let realRoot = this.realRoots.get(root);
      if (realRoot === undefined) {
        try {
          realRoot = realpathSync.native(root);
        } catch {
          return false;
        }
        this.realRoots.set(root, realRoot);
      }
      return real.startsWith(realRoot.endsWith(sep) ? realRoot : realRoot + sep);
    });
  }

  /** The bytes of a media reference; throws a readable error when they cannot be had. */
  async read(datasetId: string, ref: string): Promise<Buffer> {
    switch (mediaKind(ref)) {
      case 'blob': {
        const bytes = await this.blobs.get(mediaKey(datasetId, ref.slice(BLOB_PREFIX.length)));
        if (!bytes) throw new Error(`${ref} is missing from the blob store`);
        return bytes;
      }
      case 'url': {
        const key = urlMediaKey(datasetId, ref);
        const stored = await this.blobs.get(key);
        if (stored) return stored;
        let fetching = this.fetching.get(key);
        if (!fetching) {
          fetching = this.fetch(key, ref).finally(() => this.fetching.delete(key));
          this.fetching.set(key, fetching);
        }
        return fetching;
      }
      case 'path':
        return this.readPath(ref);
    }
  }

  private async fetch(key: string, url: string): Promise<Buffer> {
    let bytes: Buffer;
    try {
      ({ bytes } = await this.options.outbound.get(url));
    } catch (error) {
      const reason = error instanceof OutboundError ? error.reason : (error as Error).message;
      this.options.log.warn({ url, reason }, 'A media URL was not fetched');
      throw new Error(MEDIA_URL_FAILED, { cause: error });
    }
    // Stored as plain bytes: what the remote server said the type was is not trusted.
    await this.blobs.put(key, bytes, 'application/octet-stream');
    return bytes;
  }

  private async readPath(ref: string): Promise<Buffer> {
    const refused = () => new Error(`the server may not read '${ref}'`);
    const path = absolutePath(ref);
    if (!path) throw refused();
    const real = await fs.realpath(path).catch(() => undefined);
    if (!real || !this.underRoot(real)) throw refused();
    // O_NOFOLLOW: the file checked above cannot have become a link since.
    const file = await fs.open(real, constants.O_RDONLY | constants.O_NOFOLLOW).catch(() => {
      throw refused();
    });
    try {
      const stat = await file.stat();
      if (!stat.isFile()) throw refused();
      if (stat.size > this.options.maxBytes)
        throw new Error(`'${ref}' is larger than ${this.options.maxBytes} bytes`);
      return await file.readFile();
    } finally {
      await file.close();
    }
  }
}

/** The absolute path a path or file:// reference names, or undefined. */
function absolutePath(ref: string): string | undefined {
  let path: string;
  try {
    path = ref.startsWith('file://') ? fileURLToPath(ref) : ref;
  } catch {
    return undefined;
  }
  return isAbsolute(path) ? path : undefined;
}
