// Settings: the Development API key, the license, tokens for the SDK.
import { DevelopmentApiKey, License, LicenseSubmitRequest, Tokens } from '@loupe/contracts';
import type { Config } from '../config.js';
import { actorOf } from '../http/context.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { LicenseService } from '../license/license.service.js';

export function settingsRoutes(
  app: TypedApp,
  services: { apiKeys: ApiKeysService; license: LicenseService },
  config: Config,
): void {
  app.get(
    '/api/settings/key',
    {
      schema: {
        tags: ['settings'],
        summary: "The signed-in user's 'Development' API key (created on first read)",
        response: { 200: DevelopmentApiKey, ...errors(401) },
      },
    },
    (request) => services.apiKeys.developmentKey(actorOf(request)),
  );

  app.get(
    '/api/settings/license',
    {
      schema: {
        tags: ['license'],
        summary: 'The instance license',
        response: { 200: License, ...errors(401) },
      },
    },
    () => services.license.get(),
  );

  for (const [method, mode] of [
    ['post', 'submit'],
    ['put', 'resubmit'],
  ] as const) {
    app[method](
      '/api/settings/license',
      {
        schema: {
          tags: ['license'],
          summary:
            mode === 'submit'
              ? 'Submit the first license key (admins)'
              : 'Replace the license key (admins)',
          body: LicenseSubmitRequest,
          response: { 200: License, ...errors(400, 401, 403, 409) },
        },
      },
      (request) => services.license.submit(actorOf(request), request.body.key, mode),
    );
  }

  app.get(
    '/api/settings/tokens',
    {
      schema: {
        tags: ['settings'],
        summary: 'Tokens and addresses for the SDK',
        response: { 200: Tokens, ...errors(401) },
      },
    },
    (request) => {
      const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
      return { sdk_index_url: `${base}/sdk/python/simple/` };
    },
  );
}
