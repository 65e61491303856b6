// Where the CLI talks to: --url/--api-key, then LOUPE_URL/LOUPE_API_KEY, then the file the Python
// SDK's `loupe configure` writes ($XDG_CONFIG_HOME/loupe/config.json), so both share one setup.
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { LoupeClient } from '../client/client.js';
import { CliError } from './errors.js';

export const CONNECTION_OPTIONS = {
  url: { type: 'string' },
  'api-key': { type: 'string' },
} as const;

export const CONNECTION_USAGE = `Connection (in this order): --url and --api-key, the LOUPE_URL and LOUPE_API_KEY
environment variables, or the file written by \`loupe configure\` (the Python SDK).`;

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'loupe', 'config.json');
}

function saved(env: NodeJS.ProcessEnv): { url?: string; api_key?: string } {
  try {
    return JSON.parse(readFileSync(configPath(env), 'utf8')) as { url?: string; api_key?: string };
  } catch {
    return {};
  }
}

export function connect(
  values: Record<string, unknown>,
  env: NodeJS.ProcessEnv = process.env,
): LoupeClient {
  const file = saved(env);
  const url = (values.url as string | undefined) || env.LOUPE_URL || file.url;
  const apiKey = (values['api-key'] as string | undefined) || env.LOUPE_API_KEY || file.api_key;
  if (!url)
    throw new CliError(`no server address: pass --url or set LOUPE_URL.\n\n${CONNECTION_USAGE}`);
  if (!apiKey)
    throw new CliError(
      `no API key: pass --api-key or set LOUPE_API_KEY (Settings → API Keys in the web app).\n\n${CONNECTION_USAGE}`,
    );
  return new LoupeClient({ url, apiKey });
}
