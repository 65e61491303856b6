// The support bundle: a zip a user sends us when something goes wrong. It holds the version,
// the configuration, recent server logs (admins only), the migration state and whatever state the
// browser posts, all with secrets removed: members can download it too.
import { strToU8, zipSync } from 'fflate';
import type { Config } from '../config.js';
import { migrationState, type Database } from '../db/database.js';
import type { Clock } from '../platform/clock.js';
import type { LogBuffer } from '../platform/log-buffer.js';
import { actorIsAdmin, type Actor } from '../users/actor.js';
import { VERSION } from '../version.js';

const REMOVED = '(removed)';

// Names of values that are secrets whatever they hold, matched on the UPPER_SNAKE form of the
// name (secretKey → SECRET_KEY): *_KEY, *SECRET*, *PASSWORD*, *TOKEN* and their kin.
const SECRET_NAME =
  /(^|_)(API)?KEY$|SECRET|PASSWORD|PASSWD|PASSPHRASE|TOKEN|CREDENTIAL|AUTHORIZATION|(^|_)COOKIE$/;
// Names of query or key=value parameters inside text that carry secrets: password=,
// sslpassword=, key=, sslkey=, secret=, token=, X-Amz-Signature= and the like.
const SECRET_PARAMETER_NAME = /pass|pwd|key|secret|token|auth|credential|signature/i;

function isSecretName(name: string): boolean {
  return SECRET_NAME.test(
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
      .replace(/[^A-Za-z0-9]+/g, '_')
      .toUpperCase(),
  );
}

/**
 * Text without URL credentials (scheme://user:password@) or secret parameters. Linear in the
 * text's length whatever it holds: the browser posts it, so a pattern that backtracks over a
 * crafted string would hold the event loop.
 */
export function redactText(text: string): string {
  return (
    text
      .replace(/(\/\/)[^\s/@]*@/g, `$1${REMOVED}@`)
      // Split on the delimiters (kept), then look at each name=value piece once.
      .split(/([?&;\s])/)
      .map((piece) => {
        const equals = piece.indexOf('=');
        if (equals <= 0) return piece;
        const name = piece.slice(0, equals);
        return SECRET_PARAMETER_NAME.test(name) ? `${name}=${REMOVED}` : piece;
      })
      .join('')
  );
}

/** Any JSON-like value with secret-named fields removed and secrets inside text redacted. */
export function redactValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return redactText(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > 20) return REMOVED;
  if (Array.isArray(value)) return value.map((item) => redactValue(item, depth + 1));
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [
      name,
      item !== undefined && item !== null && item !== '' && isSecretName(name)
        ? REMOVED
        : redactValue(item, depth + 1),
    ]),
  );
}

/** The configuration as a support engineer may see it: no secrets, no credentials in URLs. */
export function redactedConfig(config: Config): Record<string, unknown> {
  return redactValue(config) as Record<string, unknown>;
}

export class SupportService {
  constructor(
    private readonly database: Database,
    private readonly config: Config,
    private readonly logs: LogBuffer,
    private readonly clock: Clock,
  ) {}

  async bundle(actor: Actor, clientState: unknown): Promise<{ filename: string; zip: Uint8Array }> {
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
      // The browser's environment and local storage may hold tokens too.
      'client_state.json': json(
        redactValue(
          typeof clientState === 'string' ? safeParse(clientState) : (clientState ?? null),
        ),
      ),
    };
    if (actorIsAdmin(actor)) files['server.log'] = strToU8(redactLog(this.logs.text()));
    const stamp = now.toISOString().replace(/[:.]/g, '-');
    return { filename: `loupe-support-${stamp}.zip`, zip: zipSync(files) };
  }
}

/** Log lines are JSON objects (pino): each is redacted by field name, other lines as text. */
function redactLog(text: string): string {
  return text.replace(/^.+$/gm, (line) => {
    const parsed = safeParse(line);
    return typeof parsed === 'object' && parsed !== null
      ? JSON.stringify(redactValue(parsed))
      : redactText(line);
  });
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
