// Datasets: create, list, read and delete them; their version history; their settings.
import {
  CreateDatasetRequest,
  Dataset,
  DatasetIdParams,
  DatasetIdQuery,
  HistoryRecord,
  IouThreshold,
  Ok,
  ThumbnailConfig,
} from '@loupe/contracts';
import { z } from 'zod';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { DatasetsService } from './datasets.service.js';

const tags = ['datasets'];

export function datasetsRoutes(app: TypedApp, services: { datasets: DatasetsService }): void {
  const { datasets } = services;

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
}

export function datasetHistoryRoutes(app: TypedApp, services: { datasets: DatasetsService }): void {
  const { datasets } = services;
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
}

export function datasetSettingsRoutes(
  app: TypedApp,
  services: { datasets: DatasetsService },
): void {
  const { datasets } = services;
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
    (request) => datasets.thumbnails(request.params.id),
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
    (request) => datasets.iouThreshold(request.params.id),
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
}
