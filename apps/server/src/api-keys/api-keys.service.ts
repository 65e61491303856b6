// A user's API keys: list, create, rotate, revoke, and the 'Development' key of the SDK dialog.
// Only the 'Development' key is kept sealed so the dialog can show it again; every other key is
// shown once, when created or rotated, and only its digest stays.
import { randomUUID } from 'node:crypto';
import { apiKeyMessages, type ApiKey, type CreatedApiKey } from '@loupe/contracts';
import type { Clock } from '../platform/clock.js';
import { Conflict, NotFound } from '../platform/errors.js';
import type { SecretBox } from '../platform/secret-box.js';
import { digest, newToken } from '../platform/tokens.js';
import { requireUser, type Actor } from '../users/actor.js';
import type { ApiKeyRow, ApiKeysRepository } from './api-keys.repository.js';

export const DEVELOPMENT_KEY_NAME = 'Development';
const KEY_PREFIX = 'lp_';

/** Enough to tell keys apart in a list, far too little to guess one. */
export function keyHint(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length)}…${key.slice(-4)}`;
}

export class ApiKeysService {
  constructor(
    private readonly apiKeys: ApiKeysRepository,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  async list(actor: Actor): Promise<{ api_keys: ApiKey[] }> {
    const rows = await this.apiKeys.listForUser(requireUser(actor).id);
    return { api_keys: rows.map((row) => this.toApiKey(row)) };
  }

  async create(actor: Actor, name: string): Promise<CreatedApiKey> {
    const key = newToken(KEY_PREFIX);
    const row: ApiKeyRow = {
      id: randomUUID(),
      user_id: requireUser(actor).id,
      name,
      created_at: this.clock(),
      last_used_at: null,
      ...this.secretColumns(name, key),
    };
    if (!(await this.apiKeys.insertIfAbsent(row))) throw new Conflict(apiKeyMessages.nameTaken);
    return { ...this.toApiKey(row), api_key: key };
  }

  /** A new secret for the same key; the old one stops working with this write. */
  async rotate(actor: Actor, id: string): Promise<CreatedApiKey> {
    const userId = requireUser(actor).id;
    const row = await this.apiKeys.findForUser(userId, id);
    if (!row) throw new NotFound(apiKeyMessages.notFound);
    const key = newToken(KEY_PREFIX);
    const secret = this.secretColumns(row.name, key);
    if (!(await this.apiKeys.replaceSecret(userId, id, secret))) {
      throw new NotFound(apiKeyMessages.notFound);
    }
    return { ...this.toApiKey({ ...row, ...secret, last_used_at: null }), api_key: key };
  }

  async revoke(actor: Actor, id: string): Promise<void> {
    if (!(await this.apiKeys.delete(requireUser(actor).id, id)))
      throw new NotFound(apiKeyMessages.notFound);
  }

  /** The actor's 'Development' key, created on first read (again after a revocation). */
  async developmentKey(actor: Actor): Promise<{ name: string; api_key: string }> {
    const userId = requireUser(actor).id;
    let row = await this.apiKeys.findByUserAndName(userId, DEVELOPMENT_KEY_NAME);
    if (!row) {
      await this.apiKeys.insertIfAbsent({
        id: randomUUID(),
        user_id: userId,
        name: DEVELOPMENT_KEY_NAME,
        created_at: this.clock(),
        last_used_at: null,
        ...this.secretColumns(DEVELOPMENT_KEY_NAME, newToken(KEY_PREFIX)),
      });
      row = await this.apiKeys.findByUserAndName(userId, DEVELOPMENT_KEY_NAME);
    }
    return { name: DEVELOPMENT_KEY_NAME, api_key: this.secrets.open(row!.key_ciphertext) };
  }

  private secretColumns(name: string, key: string) {
    return {
      key_hash: digest(key),
      key_ciphertext: name === DEVELOPMENT_KEY_NAME ? this.secrets.seal(key) : '',
      hint: keyHint(key),
    };
  }

  private toApiKey(row: ApiKeyRow): ApiKey {
    // Keys made before hints existed: only the sealed 'Development' key can still give one.
    const hint =
      row.hint || (row.key_ciphertext ? keyHint(this.secrets.open(row.key_ciphertext)) : '');
    return {
      id: row.id,
      name: row.name,
      created_at: row.created_at,
      last_used_at: row.last_used_at,
      hint,
      default: row.name === DEVELOPMENT_KEY_NAME,
    };
  }
}
