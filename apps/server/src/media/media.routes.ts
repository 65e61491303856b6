// Media of a dataset: the raw upload of one file, the list of files not uploaded yet, and the
// files and thumbnails themselves (with Range).
import { Readable } from 'node:stream';
import {
  DatasetIdParams,
  MediaUploadResult,
  MissingMediaRequest,
  MissingMediaResult,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { sendBlob } from '../http/range.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import { BadRequest, UnsupportedMediaType } from '../platform/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaService } from './media.service.js';

const ThumbnailQuery = z.object({ size: z.enum(['grid']).default('grid') });
const ThumbnailParams = DatasetIdParams.extend({
  base: z.string().regex(/^[0-9a-f]{40}$/, 'base must be a thumbnail key'),
});
const MediaParams = DatasetIdParams.extend({
  sha: z.string().regex(/^[0-9a-f]{64}$/, 'sha must be a sha256 hex digest'),
});

const MEDIA_ROUTE = '/api/datasets/:id/media';

export function mediaRoutes(
  app: TypedApp,
  services: { media: MediaService; blobs: BlobStore },
): void {
  const { media, blobs } = services;
  const tags = ['datasets'];

  // Media bodies are handed on as the request stream, which the service stores as it arrives
  // (its own limit applies, LOUPE_MEDIA_LIMIT_MB); no other route takes them.
  app.addContentTypeParser(
    /^(image|audio)\/[\w.+-]+(;.*)?$|^application\/octet-stream(;.*)?$/,
    (request, body, done) => {
      if (request.routeOptions.url === MEDIA_ROUTE) return done(null, body);
      done(
        new UnsupportedMediaType(
          `Unsupported Content-Type ${request.headers['content-type']}: send application/json.`,
        ),
        undefined,
      );
    },
  );

  app.post(
    MEDIA_ROUTE,
    {
      schema: {
        tags,
        summary:
          'Upload one media file as the raw request body (Content-Type image/* or audio/*; SVG is refused); answers its blob key',
        params: DatasetIdParams,
        response: { 200: MediaUploadResult, ...errors(400, 401, 403, 404, 413, 415) },
      },
    },
    (request) => {
      if (!(request.body instanceof Readable))
        throw new BadRequest(
          'Send the file as the raw body with Content-Type image/*, audio/* or application/octet-stream.',
        );
      const declared = Number(request.headers['content-length']);
      return media.uploadMedia(
        actorOf(request),
        request.params.id,
        request.body,
        request.headers['content-type'] ?? 'application/octet-stream',
        Number.isFinite(declared) ? declared : undefined,
      );
    },
  );

  app.post(
    '/api/datasets/:id/media/missing',
    {
      schema: {
        tags,
        summary: 'Which of these blob keys are not uploaded yet (for resuming)',
        params: DatasetIdParams,
        body: MissingMediaRequest,
        response: { 200: MissingMediaResult, ...errors(400, 401, 404) },
      },
    },
    async (request) => ({
      missing: await media.missingMedia(request.params.id, request.body.keys),
    }),
  );

  app.get(
    '/api/datasets/:id/media/:sha',
    { schema: { tags, summary: 'An uploaded media file (supports Range)', params: MediaParams } },
    async (request, reply) => {
      const key = await media.mediaBlobKey(request.params.id, request.params.sha);
      return sendBlob(request, reply, blobs, key, {
        etag: request.params.sha,
        immutable: true,
      });
    },
  );

  app.get(
    '/api/datasets/:id/thumbnails/:base',
    {
      schema: {
        tags,
        summary:
          "A sample's WebP thumbnail, at most 512 px (a small uploaded image is its own thumbnail: its thumbnail URL is then the media's)",
        params: ThumbnailParams,
        querystring: ThumbnailQuery,
      },
    },
    async (request, reply) =>
      sendBlob(
        request,
        reply,
        blobs,
        await media.thumbnailKey(request.params.id, request.params.base),
        {
          etag: `${request.params.base}-${request.query.size}`,
          immutable: false,
          contentType: 'image/webp',
        },
      ),
  );
}
