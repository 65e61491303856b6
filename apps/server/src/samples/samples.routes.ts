// Samples: the batch upload the SDKs send, and a sample's original media.
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { BLOB_HEADERS, sendBlob } from '../http/range.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { SamplesService } from './samples.service.js';

export function samplesRoutes(
  app: TypedApp,
  services: { samples: SamplesService; blobs: BlobStore },
): void {
  const { samples, blobs } = services;

  registerRoute(app, api.samples.media, async (request, reply) => {
    const media = await samples.media(request.params.id, request.query.sample_id);
    if ('blobKey' in media)
      return sendBlob(request, reply, blobs, media.blobKey, {
        etag: media.sha,
        immutable: false,
        ...(media.contentType ? { contentType: media.contentType } : {}),
      });
    return reply
      .headers(BLOB_HEADERS)
      .header('cache-control', 'private, max-age=300')
      .type(media.mediaType === 'audio' ? 'audio/wav' : 'application/octet-stream')
      .send(media.bytes);
  });

  registerRoute(app, api.samples.upload, (request) =>
    samples.upload(
      actorOf(request),
      request.params.id,
      request.body.samples,
      request.body.metadata_types,
    ),
  );
}
