// The application state the web app reads on start (docs/product.md, Shell §3 'App state').
import { randomUUID } from 'node:crypto';
import type { AppState } from '@loupe/contracts';
import type { Config } from '../config.js';
import type { LicenseService } from '../license/license.service.js';
import type { SettingsRepository } from '../settings/settings.repository.js';
import type { SetupService } from '../setup/setup.service.js';
import { actingUser, type Actor } from '../users/actor.js';
import { toUser } from '../users/users.service.js';
import { VERSION } from '../version.js';

export class StateService {
  constructor(
    private readonly settings: Pick<SettingsRepository, 'get' | 'getOrInit'>,
    private readonly setup: Pick<SetupService, 'state'>,
    private readonly license: Pick<LicenseService, 'get'>,
    private readonly config: Pick<Config, 'environment' | 'versionsUrl'>,
  ) {}

  deploymentId(): Promise<string> {
    return this.settings.getOrInit('deployment_id', randomUUID());
  }

  async state(actor: Actor | undefined): Promise<AppState> {
    const user = actor && actingUser(actor);
    const [setupState, deploymentId, license, company] = await Promise.all([
      this.setup.state(),
      this.deploymentId(),
      this.license.get(),
      this.settings.get('company_name'),
    ]);
    return {
      setup_state: setupState,
      ...(user ? { user: toUser(user, company ?? '') } : {}),
      error_monitoring_enabled: false,
      analytics_enabled: false,
      thumbnails_enabled: true,
      deployment_id: deploymentId,
      auth_state: { type: 'local', oauth_provider_display_name: '', is_oauth_logged_in: false },
      ...(license.license_id
        ? { license: { company_name: license.company_name ?? '', license_id: license.license_id } }
        : {}),
      version: VERSION,
      environment: this.config.environment,
      ...(this.config.versionsUrl ? { versions_url: this.config.versionsUrl } : {}),
    };
  }
}
