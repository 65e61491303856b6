// The support bundle: a zip a user sends us when something goes wrong. It holds the version,
// the configuration with secrets removed, recent server logs (admins only), the migration state
// and whatever state the browser posts.
import { strToU8, zipSync } from 'fflate';
import type { Config } from '../config.js';
import { migrationState, type Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { LogBuffer } from '../platform/log-buffer.js';
import { rowIsAdmin } from '../users/authorize.js';
import type { UserRow } from '../users/users.repository.js';
import { VERSION } from '../version.js';

const REMOVED = '(removed)';

/** The configuration as a support engineer may see it: no secrets, no credentials in URLs. */
export function redactedConfig(config: Config): Record<string, unknown> {
  const database =
    config.database.kind === 'postgres'
      ? { ...config.database, url: config.database.url.replace(/\/\/[^@/]*@/, `//${REMOVED}@`) }
      : config.database;
  return {
    ...config,
    database,
    secretKey: config.secretKey ? REMOVED : undefined,
    licensePublicKey: config.licensePublicKey ? '(custom key set)' : undefined,
  };
}

export class SupportService {
  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly logs: LogBuffer,
    private readonly clock: Clock,
  ) {}

  async bundle(
    actor: UserRow,
    clientState: unknown,
  ): Promise<{ filename: string; zip: Uint8Array }> {
    const now = new Date(this.clock());
    const json = (value: unknown) => strToU8(JSON.stringify(value, null, 2));
    const files: Record<string, Uint8Array> = {
      'version.json': json({
        version: VERSION,
        node: process.version,
        platform: process.platform,
        created_at: now.toISOString(),
      }),
      'configuration.json': json(redactedConfig(this.config)),
      'migrations.json': json(await migrationState(this.database)),
      'client_state.json': json(
        typeof clientState === 'string' ? safeParse(clientState) : (clientState ?? null),
      ),
    };
    if (rowIsAdmin(actor)) files['server.log'] = strToU8(this.logs.text());
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    return { filename: `loupe-support-${stamp}.zip`, zip: zipSync(files) };
  }
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
