// The support bundle download (JSON body or an HTML form post with a client_state field).
import { api } from '@loupe/contracts';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { SupportService } from './support.service.js';

export function supportRoutes(app: TypedApp, services: { support: SupportService }): void {
  registerRoute(app, api.support.bundle, async (request, reply) => {
    const { filename, zip } = await services.support.bundle(
      actorOf(request),
      request.body?.client_state,
    );
    return reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .send(Buffer.from(zip));
  });
}
