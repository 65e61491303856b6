// Kysely table types. Timestamps are integer milliseconds since the epoch; booleans are 0/1
// integers so SQLite and PostgreSQL store them alike.
export interface UsersTable {
  id: string;
  email: string;
  name: string;
  role: 'admin' | 'member';
  enabled: number;
  password_hash: string | null;
  auth_type: 'local' | 'oauth';
  created_at: number;
  updated_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  remember: number;
  created_at: number;
  expires_at: number;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  key_hash: string;
  key_ciphertext: string;
  created_at: number;
}

export interface PasswordResetTokensTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface DB {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  password_reset_tokens: PasswordResetTokensTable;
  settings: SettingsTable;
}
