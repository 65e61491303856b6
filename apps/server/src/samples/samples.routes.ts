// Samples: the batch upload the SDKs send, and a sample's original media.
import {
  BatchErrorBody,
  boundedRecord,
  DatasetIdParams,
  MAX_METADATA_FIELDS,
  MAX_ROWS_PER_REQUEST,
  UploadResult,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { BLOB_HEADERS, sendBlob } from '../http/range.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { BlobStore } from '../storage/blob-store.js';
import type { SamplesService } from './samples.service.js';

const MetadataTypes = boundedRecord(
  z.string(),
  z.enum(['numeric', 'string', 'boolean', 'timestamp']),
  MAX_METADATA_FIELDS,
).default({});
const UploadSamplesBody = z.object({
  samples: z
    .array(z.unknown())
    .min(1, 'samples must not be empty')
    .max(MAX_ROWS_PER_REQUEST, 'send at most 20,000 samples per batch'),
  metadata_types: MetadataTypes,
});
const SampleQuery = z.object({ sample_id: z.string().min(1) });

export function samplesRoutes(
  app: TypedApp,
  services: { samples: SamplesService; blobs: BlobStore },
): void {
  const { samples, blobs } = services;
  const tags = ['datasets'];

  app.get(
    '/api/datasets/:id/samples/media',
    {
      schema: {
        tags,
        summary: "A sample's original media, wherever it lives (supports Range for uploaded files)",
        params: DatasetIdParams,
        querystring: SampleQuery,
      },
    },
    async (request, reply) => {
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
    },
  );

  app.post(
    '/api/datasets/:id/samples',
    {
      schema: {
        tags,
        summary:
          'Upload a batch of samples (idempotent by id; the batch lands whole or not at all; ' +
          'batches sent at once are stored one after the other, in the order they reach the dataset)',
        params: DatasetIdParams,
        body: UploadSamplesBody,
        response: { 200: UploadResult, 400: BatchErrorBody, ...errors(401, 403, 404, 413) },
      },
    },
    (request) =>
      samples.upload(
        actorOf(request),
        request.params.id,
        request.body.samples,
        request.body.metadata_types,
      ),
  );
}
