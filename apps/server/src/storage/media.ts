// Resolves what a sample's media field names — an uploaded blob, an http(s) URL, or a file under
// LOUPE_MEDIA_ROOTS — and reads its bytes for processing.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { isAbsolute, resolve, sep } from 'node:path';
import type { BlobStore } from './blob-store.js';

export const BLOB_PREFIX = 'blob:';

export function mediaKey(datasetId: string, sha256: string): string {
  return `datasets/${datasetId}/media/${sha256}`;
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

export class MediaResolver {
  constructor(
    private readonly blobs: BlobStore,
    private readonly roots: string[],
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
        return undefined;
      case 'path':
        return this.allowedPath(ref)
          ? undefined
          : `the server may not read '${ref}': only files under LOUPE_MEDIA_ROOTS (${this.roots.join(':') || 'none set'}) can be referenced by path; upload the file instead`;
    }
  }

  private allowedPath(ref: string): string | undefined {
    const path = ref.startsWith('file://') ? new URL(ref).pathname : ref;
    if (!isAbsolute(path)) return undefined;
    const full = resolve(path);
    return this.roots.some((root) => full.startsWith(root.endsWith(sep) ? root : root + sep))
      ? full
      : undefined;
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
        const response = await fetch(ref, { signal: AbortSignal.timeout(30_000) });
        if (!response.ok) throw new Error(`GET ${ref} answered ${response.status}`);
        return Buffer.from(await response.arrayBuffer());
      }
      case 'path': {
        const path = this.allowedPath(ref);
        if (!path) throw new Error(`the server may not read '${ref}'`);
        return fs.readFile(path);
      }
    }
  }
}
