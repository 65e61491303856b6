// Composition root: builds every service from the configuration, the database and the clock.
import type { Config } from './config.js';
import { AuthService } from './auth/auth.service.js';
import { LoginLimiter } from './auth/login-limiter.js';
import type { Database } from './db/database.js';
import { createRepositories, transactor } from './db/repositories.js';
import { licensePublicKey } from './license/license-token.js';
import { LicenseService } from './license/license.service.js';
import { systemClock, type Clock } from './platform/clock.js';
import type { LogBuffer } from './platform/log-buffer.js';
import { SecretBox } from './platform/secret-box.js';
import { SetupService } from './setup/setup.service.js';
import { StateService } from './state/state.service.js';
import { SupportService } from './support/support.service.js';
import { UsersService } from './users/users.service.js';

export function createServices(
  config: Config,
  database: Database,
  logs: LogBuffer,
  clock: Clock = systemClock,
) {
  const repos = createRepositories(database.db);
  const transact = transactor(database.db);
  const secrets = SecretBox.fromConfig(config.secretKey, config.dataDir);
  const auth = new AuthService(repos, transact, clock, new LoginLimiter(), secrets);
  const license = new LicenseService(repos, licensePublicKey(config.licensePublicKey), clock);
  const setup = new SetupService(repos, transact, auth, clock);
  return {
    auth,
    license,
    setup,
    state: new StateService(repos, setup, license, config),
    users: new UsersService(repos, transact, clock),
    support: new SupportService(database, config, logs, clock),
  };
}
export type Services = ReturnType<typeof createServices>;
