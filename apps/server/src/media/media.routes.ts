// Media of a dataset: the raw upload of one file, the list of files not uploaded yet, and the
// files and thumbnails themselves (with Range).
import { Readable } from 'node:stream';
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { sendBlob } from '../http/range.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import { BadRequest, UnsupportedMediaType } from '../platform/errors.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { MediaService } from './media.service.js';

export function mediaRoutes(
  app: TypedApp,
  services: { media: MediaService; blobs: BlobStore },
): void {
  const { media, blobs } = services;

  // Media bodies are handed on as the request stream, which the service stores as it arrives
  // (its own limit applies, LOUPE_MEDIA_LIMIT_MB); no other route takes them.
  app.addContentTypeParser(
    /^(image|audio)\/[\w.+-]+(;.*)?$|^application\/octet-stream(;.*)?$/,
    (request, body, done) => {
      if (request.routeOptions.url === api.media.upload.path) return done(null, body);
      done(
        new UnsupportedMediaType(
          `Unsupported Content-Type ${request.headers['content-type']}: send application/json.`,
        ),
        undefined,
      );
    },
  );

  registerRoute(app, api.media.upload, (request) => {
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
  });

  registerRoute(app, api.media.missing, async (request) => ({
    missing: await media.missingMedia(request.params.id, request.body.keys),
  }));

  registerRoute(app, api.media.file, async (request, reply) => {
    const key = await media.mediaBlobKey(request.params.id, request.params.sha);
    return sendBlob(request, reply, blobs, key, { etag: request.params.sha, immutable: true });
  });

  registerRoute(app, api.media.thumbnail, async (request, reply) =>
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
