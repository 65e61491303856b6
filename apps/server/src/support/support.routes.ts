// The support bundle download (JSON body or an HTML form post with a client_state field).
import { SupportBundleRequest } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import type { TypedApp } from '../http/route-kit.js';
import type { SupportService } from './support.service.js';

export function supportRoutes(app: TypedApp, services: { support: SupportService }): void {
  app.post(
    '/api/support/bundle',
    {
      schema: {
        tags: ['support'],
        summary: 'Download a support bundle (zip)',
        body: SupportBundleRequest.optional(),
      },
    },
    async (request, reply) => {
      const { filename, zip } = await services.support.bundle(
        actorOf(request),
        request.body?.client_state,
      );
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .send(Buffer.from(zip));
    },
  );
}
