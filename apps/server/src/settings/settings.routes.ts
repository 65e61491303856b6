// Settings: the Development API key, the license, tokens for the SDK.
import { api } from '@loupe/contracts';
import type { Config } from '../config.js';
import { actorOf } from '../http/context.js';
import { registerRoute, type TypedApp } from '../http/route-kit.js';
import type { ApiKeysService } from '../api-keys/api-keys.service.js';
import type { LicenseService } from '../license/license.service.js';

export function settingsRoutes(
  app: TypedApp,
  services: { apiKeys: ApiKeysService; license: LicenseService },
  config: Config,
): void {
  registerRoute(app, api.settings.developmentKey, (request) =>
    services.apiKeys.developmentKey(actorOf(request)),
  );

  registerRoute(app, api.settings.license, () => services.license.get());

  registerRoute(app, api.settings.submitLicense, (request) =>
    services.license.submit(actorOf(request), request.body.key, 'submit'),
  );
  registerRoute(app, api.settings.replaceLicense, (request) =>
    services.license.submit(actorOf(request), request.body.key, 'resubmit'),
  );

  registerRoute(app, api.settings.tokens, (request) => {
    const base = config.publicUrl ?? `${request.protocol}://${request.host}`;
    return { sdk_index_url: `${base}/sdk/python/simple/` };
  });
}
