// Serves a blob with caching headers and HTTP range requests (audio and video seeking).
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { BlobRange, BlobStore } from '../storage/blob-store.js';
import { NotFound } from '../platform/errors.js';

/** Parses a single `bytes=a-b` range; undefined for none or for forms we serve whole. */
export function parseRange(
  header: string | undefined,
  size: number,
): BlobRange | 'unsatisfiable' | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  let start: number;
  let end: number;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}

/**
 * Headers of every file served from the blob routes: the browser neither guesses another type
 * nor runs anything in it (an SVG or HTML that got in some way other than an upload included).
 */
export const BLOB_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
} as const;

/** Files up to this size are sent from memory rather than streamed. */
const WHOLE_BYTES = 1024 * 1024;

export async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  blobs: BlobStore,
  key: string,
  options: { etag: string; immutable: boolean; contentType?: string },
): Promise<FastifyReply> {
  const info = await blobs.head(key, options.contentType);
  if (!info) throw new NotFound('The file is missing from the blob store.');
  const etag = `"${options.etag}"`;
  void reply
    .headers(BLOB_HEADERS)
    .header('etag', etag)
    .header('accept-ranges', 'bytes')
    .header('content-type', options.contentType ?? info.contentType)
    .header(
      'cache-control',
      options.immutable ? 'private, max-age=31536000, immutable' : 'private, max-age=300',
    );
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  const range = parseRange(request.headers.range, info.size);
  if (range === 'unsatisfiable') {
    return reply
      .status(416)
      .header('content-range', `bytes */${info.size}`)
      .send({ description: 'Requested range not satisfiable.', retriable: false });
  }
  // A small file whole (most are thumbnails): read in one go and written with its headers in one
  // system call, where a stream costs several reads and writes per response.
  if (!range && info.size <= WHOLE_BYTES) {
    const bytes = await blobs.get(key);
    if (!bytes) throw new NotFound('The file is missing from the blob store.');
    return reply.header('content-length', bytes.length).send(bytes);
  }
  const stream = await blobs.stream(key, range);
  if (!stream) throw new NotFound('The file is missing from the blob store.');
  if (range) {
    return reply
      .status(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
      .header('content-length', range.end - range.start + 1)
      .send(stream);
  }
  return reply.header('content-length', info.size).send(stream);
}
