// Downloads of a subset or of chosen items as a zip of the COCO or CSV layout, streamed as the
// archive is made (docs/formats.md, "Exporting").
import { api } from '@loupe/contracts';
import type { FastifyReply } from 'fastify';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ExportDownload, ExportService } from './export.service.js';

/** Content-Disposition with an ASCII name for every client and the UTF-8 name for those that read it. */
export function attachment(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}

function send(reply: FastifyReply, download: ExportDownload): FastifyReply {
  return reply
    .header('content-type', 'application/zip')
    .header('content-disposition', attachment(download.filename))
    .header('cache-control', 'no-store')
    .send(download.stream);
}

export function exportRoutes(app: TypedApp, services: { exports: ExportService }): void {
  const { exports } = services;
  registerRoute(app, api.subsets.export, async (request, reply) =>
    send(
      reply,
      await exports.exportSubset(
        actorOf(request),
        request.params.id,
        request.params.subsetId,
        request.query,
      ),
    ),
  );
  registerRoute(app, api.curation.exportSelection, async (request, reply) =>
    send(reply, await exports.exportSelection(actorOf(request), request.params.id, request.body)),
  );
}
