import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to SQLite in data/ on port 8080', () => {
    const config = loadConfig({}, '/srv/loupe');
    expect(config).toMatchObject({
      port: 8080,
      dataDir: '/srv/loupe/data',
      database: { kind: 'sqlite', path: '/srv/loupe/data/loupe.db' },
    });
  });

  it('uses PostgreSQL for a postgres:// DATABASE_URL and honours PORT and LOUPE_DATA_DIR', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u:p@db:5432/loupe',
      PORT: '9000',
      LOUPE_DATA_DIR: '/var/lib/loupe',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/var/lib/loupe',
      database: { kind: 'postgres', url: 'postgres://u:p@db:5432/loupe' },
    });
  });

  it('names every wrong variable', () => {
    expect(() => loadConfig({ PORT: 'eighty', LOUPE_ENV: 'staging' })).toThrow(
      /PORT: .*; LOUPE_ENV: /,
    );
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(
      /DATABASE_URL must start with postgres:\/\/ or sqlite:/,
    );
  });
});
