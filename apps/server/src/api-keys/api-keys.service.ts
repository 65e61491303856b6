// A user's API keys: list, create, rotate, revoke, and the 'Development' key of the SDK dialog.
// Only the 'Development' key is kept sealed so the dialog can show it again; every other key is
// shown once, when created or rotated, and only its digest stays.
import { randomUUID } from 'node:crypto';
import { apiKeyMessages, type ApiKey, type CreatedApiKey } from '@loupe/contracts';
import type { Repositories } from '../db/repositories.js';
import { Conflict, NotFound } from '../http/errors.js';
import type { Clock } from '../platform/clock.js';
import type { SecretBox } from '../platform/secret-box.js';
import { digest, newToken } from '../platform/tokens.js';
import type { UserRow } from '../users/users.repository.js';
import type { ApiKeyRow } from './api-keys.repository.js';

export const DEVELOPMENT_KEY_NAME = 'Development';
const KEY_PREFIX = 'lp_';

/** Enough to tell keys apart in a list, far too little to guess one. */
export function keyHint(key: string): string {
  return `${key.slice(0, KEY_PREFIX.length)}…${key.slice(-4)}`;
}

export class ApiKeysService {
  constructor(
    private readonly repos: Repositories,
    private readonly clock: Clock,
    private readonly secrets: SecretBox,
  ) {}

  async list(actor: UserRow): Promise<{ api_keys: ApiKey[] }> {
    const rows = await this.repos.apiKeys.listForUser(actor.id);
    return { api_keys: rows.map((row) => this.toApiKey(row)) };
  }

  async create(actor: UserRow, name: string): Promise<CreatedApiKey> {
    const key = newToken(KEY_PREFIX);
    const row: ApiKeyRow = {
      id: randomUUID(),
      user_id: actor.id,
      name,
      created_at: this.clock(),
      last_used_at: null,
      ...this.secretColumns(name, key),
    };
    if (!(await this.repos.apiKeys.insertIfAbsent(row)))
      throw new Conflict(apiKeyMessages.nameTaken);
    return { ...this.toApiKey(row), api_key: key };
  }

  /** A new secret for the same key; the old one stops working with this write. */
  async rotate(actor: UserRow, id: string): Promise<CreatedApiKey> {
    const row = await this.repos.apiKeys.findForUser(actor.id, id);
    if (!row) throw new NotFound(apiKeyMessages.notFound);
    const key = newToken(KEY_PREFIX);
    const secret = this.secretColumns(row.name, key);
    if (!(await this.repos.apiKeys.replaceSecret(actor.id, id, secret))) {
      throw new NotFound(apiKeyMessages.notFound);
    }
    return { ...this.toApiKey({ ...row, ...secret, last_used_at: null }), api_key: key };
  }

  async revoke(actor: UserRow, id: string): Promise<void> {
    if (!(await this.repos.apiKeys.delete(actor.id, id)))
      throw new NotFound(apiKeyMessages.notFound);
  }

  /** The actor's 'Development' key, created on first read (again after a revocation). */
  async developmentKey(actor: UserRow): Promise<{ name: string; api_key: string }> {
    let row = await this.repos.apiKeys.findByUserAndName(actor.id, DEVELOPMENT_KEY_NAME);
    if (!row) {
      await this.repos.apiKeys.insertIfAbsent({
        id: randomUUID(),
        user_id: actor.id,
        name: DEVELOPMENT_KEY_NAME,
        created_at: this.clock(),
        last_used_at: null,
        ...this.secretColumns(DEVELOPMENT_KEY_NAME, newToken(KEY_PREFIX)),
      });
      row = await this.repos.apiKeys.findByUserAndName(actor.id, DEVELOPMENT_KEY_NAME);
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
