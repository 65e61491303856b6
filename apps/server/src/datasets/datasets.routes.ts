// Datasets and uploads: the routes the SDKs and the web app call.
import { Readable } from 'node:stream';
import {
  Activity,
  ActivitiesQuery,
  BatchErrorBody,
  boundedRecord,
  MAX_METADATA_FIELDS,
  MAX_ROWS_PER_REQUEST,
  CreateDatasetRequest,
  CreatePredictionSetRequest,
  Dataset,
  DatasetIdParams,
  DatasetIdQuery,
  FeatureInfo,
  FeatureUploadRequest,
  HistoryRecord,
  IouThreshold,
  MediaUploadResult,
  MissingMediaRequest,
  MissingMediaResult,
  Ok,
  PredictionSet,
  PredictionSetParams,
  AttributionInput,
  ThumbnailConfig,
  UploadAttributionsRequest,
  UploadPredictionsRequest,
  UploadResult,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { BadRequest, UnsupportedMediaType } from '../http/errors.js';
import { BLOB_HEADERS, sendBlob } from '../http/range.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { Services } from '../services.js';

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
const ThumbnailQuery = z.object({ size: z.enum(['grid']).default('grid') });
const SampleQuery = z.object({ sample_id: z.string().min(1) });
const ThumbnailParams = DatasetIdParams.extend({
  base: z.string().regex(/^[0-9a-f]{40}$/, 'base must be a thumbnail key'),
});
const MediaParams = DatasetIdParams.extend({
  sha: z.string().regex(/^[0-9a-f]{64}$/, 'sha must be a sha256 hex digest'),
});

const MEDIA_ROUTE = '/api/datasets/:id/media';

export function datasetsRoutes(app: TypedApp, services: Services): void {
  const { datasets } = services;
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

  app.get(
    '/api/datasets',
    {
      schema: {
        tags,
        summary: 'List datasets',
        response: { 200: z.array(Dataset), ...errors(401) },
      },
    },
    () => datasets.list(),
  );

  app.post(
    '/api/datasets',
    {
      schema: {
        tags,
        summary: 'Create a dataset (needs a license)',
        body: CreateDatasetRequest,
        response: { 200: Dataset, 201: Dataset, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const { dataset, created } = await datasets.create(actorOf(request), request.body);
      return reply.status(created ? 201 : 200).send(dataset);
    },
  );

  app.get(
    '/api/dataset',
    {
      schema: {
        tags,
        summary: 'One dataset',
        querystring: DatasetIdQuery,
        response: { 200: Dataset, ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.get(request.query.dataset_id),
  );
  app.get(
    '/api/datasets/:id',
    {
      schema: {
        tags,
        summary: 'One dataset',
        params: DatasetIdParams,
        response: { 200: Dataset, ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.get(request.params.id),
  );

  app.delete(
    '/api/dataset',
    {
      schema: {
        tags,
        summary: 'Delete a dataset and all its files',
        querystring: DatasetIdQuery,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await datasets.delete(actorOf(request), request.query.dataset_id);
      return { ok: true as const };
    },
  );
  app.delete(
    '/api/datasets/:id',
    {
      schema: {
        tags,
        summary: 'Delete a dataset and all its files',
        params: DatasetIdParams,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await datasets.delete(actorOf(request), request.params.id);
      return { ok: true as const };
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
      return datasets.uploadMedia(
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
      missing: await datasets.missingMedia(request.params.id, request.body.keys),
    }),
  );

  app.get(
    '/api/datasets/:id/media/:sha',
    { schema: { tags, summary: 'An uploaded media file (supports Range)', params: MediaParams } },
    async (request, reply) => {
      const key = await datasets.mediaBlobKey(request.params.id, request.params.sha);
      return sendBlob(request, reply, services.blobs, key, {
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
        services.blobs,
        await datasets.thumbnailKey(request.params.id, request.params.base),
        {
          etag: `${request.params.base}-${request.query.size}`,
          immutable: false,
          contentType: 'image/webp',
        },
      ),
  );

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
      const media = await datasets.sampleMedia(request.params.id, request.query.sample_id);
      if ('blobKey' in media)
        return sendBlob(request, reply, services.blobs, media.blobKey, {
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
      datasets.uploadSamples(
        actorOf(request),
        request.params.id,
        request.body.samples,
        request.body.metadata_types,
      ),
  );

  app.get(
    '/api/datasets/:id/history',
    {
      schema: {
        tags,
        summary: 'Version history',
        params: DatasetIdParams,
        response: { 200: z.array(HistoryRecord), ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.history(request.params.id),
  );

  app.get(
    '/api/datasets/:id/features',
    {
      schema: {
        tags,
        summary: 'Features of a dataset',
        params: DatasetIdParams,
        response: { 200: z.array(FeatureInfo), ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.features(request.params.id),
  );
  app.post(
    '/api/datasets/:id/features',
    {
      schema: {
        tags,
        summary: 'Upload feature vectors (idempotent by item id)',
        params: DatasetIdParams,
        body: FeatureUploadRequest,
        response: { 200: FeatureInfo, 400: BatchErrorBody, ...errors(401, 403, 404, 409, 413) },
      },
    },
    (request) => datasets.uploadFeatures(actorOf(request), request.params.id, request.body),
  );

  app.get(
    '/api/datasets/:id/thumbnails',
    {
      schema: {
        tags,
        summary: 'Thumbnail configuration',
        params: DatasetIdParams,
        response: { 200: ThumbnailConfig, ...errors(400, 401, 404) },
      },
    },
    async (request) => ({
      enabled: (await datasets.dataset(request.params.id)).thumbnails_enabled === 1,
    }),
  );
  app.put(
    '/api/datasets/:id/thumbnails',
    {
      schema: {
        tags,
        summary: 'Enable thumbnails (generates them) or disable them (deletes them)',
        params: DatasetIdParams,
        body: ThumbnailConfig,
        response: { 200: ThumbnailConfig, ...errors(400, 401, 404) },
      },
    },
    (request) =>
      datasets.setThumbnailsEnabled(actorOf(request), request.params.id, request.body.enabled),
  );
  app.get(
    '/api/datasets/:id/iou_threshold',
    {
      schema: {
        tags,
        summary: 'IoU threshold',
        params: DatasetIdParams,
        response: { 200: IouThreshold, ...errors(400, 401, 404) },
      },
    },
    async (request) => ({
      iou_threshold: (await datasets.dataset(request.params.id)).iou_threshold,
    }),
  );
  app.put(
    '/api/datasets/:id/iou_threshold',
    {
      schema: {
        tags,
        summary: 'Set the IoU threshold (0–1)',
        params: DatasetIdParams,
        body: IouThreshold,
        response: { 200: IouThreshold, ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.setIouThreshold(request.params.id, request.body.iou_threshold),
  );

  // ---- prediction sets (models)
  const modelTags = ['models'];
  app.get(
    '/api/models',
    {
      schema: {
        tags: modelTags,
        summary: 'All prediction sets',
        response: { 200: z.array(PredictionSet), ...errors(401) },
      },
    },
    () => datasets.predictionSets(),
  );
  app.get(
    '/api/dataset/models',
    {
      schema: {
        tags: modelTags,
        summary: "A dataset's prediction sets",
        querystring: DatasetIdQuery,
        response: { 200: z.array(PredictionSet), ...errors(400, 401, 404) },
      },
    },
    (request) => datasets.predictionSets(request.query.dataset_id),
  );
  app.post(
    '/api/datasets/:id/predictions',
    {
      schema: {
        tags: modelTags,
        summary: 'Create a prediction set',
        params: DatasetIdParams,
        body: CreatePredictionSetRequest,
        response: { 200: PredictionSet, 201: PredictionSet, ...errors(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const { set, created } = await datasets.createPredictionSet(
        actorOf(request),
        request.params.id,
        request.body.name,
        request.body.exist_ok,
      );
      return reply.status(created ? 201 : 200).send(set);
    },
  );
  app.post(
    '/api/datasets/:id/predictions/:predictionSetId/items',
    {
      schema: {
        tags: modelTags,
        summary: 'Upload a batch of predictions (idempotent by sample id)',
        params: PredictionSetParams,
        body: UploadPredictionsRequest,
        response: { 200: UploadResult, 400: BatchErrorBody, ...errors(401, 403, 404, 413) },
      },
    },
    (request) =>
      datasets.uploadPredictions(
        actorOf(request),
        request.params.id,
        request.params.predictionSetId,
        request.body.predictions,
      ),
  );
  app.post(
    '/api/datasets/:id/predictions/:predictionSetId/attributions',
    {
      schema: {
        tags: modelTags,
        summary: 'Upload attribution heatmaps for a prediction set',
        params: PredictionSetParams,
        body: UploadAttributionsRequest,
        response: {
          200: z.object({ uploaded: z.number() }),
          400: BatchErrorBody,
          ...errors(401, 403, 404, 413),
        },
      },
    },
    (request) => {
      const rows = request.body.attributions.map((row, i) => {
        const parsed = AttributionInput.safeParse(row);
        if (!parsed.success)
          throw new BadRequest(`attributions.${i}: ${parsed.error.issues[0]?.message}`);
        return parsed.data;
      });
      return datasets.uploadAttributions(
        actorOf(request),
        request.params.id,
        request.params.predictionSetId,
        request.body.name,
        rows,
      );
    },
  );

  // ---- activities
  app.get(
    '/api/activities',
    {
      schema: {
        tags: ['activities'],
        summary: 'Background jobs as activities, newest first',
        querystring: ActivitiesQuery,
        response: { 200: z.array(Activity), ...errors(400, 401) },
      },
    },
    (request) =>
      services.jobs.activities(actorOf(request), request.query.scope, request.query.limit),
  );
}
