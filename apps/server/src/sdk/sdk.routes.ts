// The Python SDK served by the instance itself: a PEP 503 simple index and the wheel.
import { api } from '@loupe/contracts';
import { NotFound } from '../platform/errors.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { WheelCache } from './python-wheel.js';

const page = (title: string, links: string) =>
  `<!DOCTYPE html>\n<html><head><meta name="pypi:repository-version" content="1.0"><title>${title}</title></head><body>\n${links}\n</body></html>\n`;

export function sdkRoutes(app: TypedApp, wheels: WheelCache): void {
  const need = async () => {
    const wheel = await wheels.wheel();
    if (!wheel) throw new NotFound('The Python SDK is not part of this installation.');
    return wheel;
  };

  registerRoute(app, api.sdk.pythonIndex, async (_request, reply) => {
    await need();
    return reply.type('text/html').send(page('Simple index', '<a href="loupe/">loupe</a>'));
  });
  registerRoute(app, api.sdk.pythonPackage, async (_request, reply) => {
    const wheel = await need();
    const link = `<a href="../../files/${wheel.filename}#sha256=${wheel.sha256}" data-requires-python="&gt;=3.9">${wheel.filename}</a>`;
    return reply.type('text/html').send(page('Links for loupe', link));
  });
  registerRoute(app, api.sdk.pythonFile, async (request, reply) => {
    const wheel = await need();
    if (request.params.filename !== wheel.filename)
      throw new NotFound(
        `No file ${request.params.filename}; the current wheel is ${wheel.filename}.`,
      );
    return reply
      .type('application/octet-stream')
      .header('content-disposition', `attachment; filename="${wheel.filename}"`)
      .header('cache-control', 'no-cache')
      .send(wheel.bytes);
  });
}
