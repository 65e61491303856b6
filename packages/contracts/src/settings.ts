// API keys, tokens and the application state answered on start (docs/product.md, Shell §3, §7).
import { z } from 'zod';
import { boundedRecord } from './bounded.js';
import { User } from './users.js';

/** The 'Development' key of GET /api/settings/key, which the SDK dialog shows again on each read. */
export const DevelopmentApiKey = z
  .object({ name: z.string(), api_key: z.string() })
  .meta({ id: 'DevelopmentApiKey' });
export type DevelopmentApiKey = z.infer<typeof DevelopmentApiKey>;

export const Tokens = z
  .object({ docs_access_token: z.string().optional(), sdk_index_url: z.string() })
  .meta({ id: 'Tokens' });
export type Tokens = z.infer<typeof Tokens>;

export const SetupState = z.enum(['INITIAL', 'COMPLETE']).meta({ id: 'SetupState' });
export type SetupState = z.infer<typeof SetupState>;

export const AuthState = z
  .object({
    type: z.enum(['local', 'oauth']),
    oauth_provider_display_name: z.string(),
    is_oauth_logged_in: z.boolean(),
    is_oauth_admin: z.boolean().optional(),
  })
  .meta({ id: 'AuthState' });
export type AuthState = z.infer<typeof AuthState>;

export const AppState = z
  .object({
    setup_state: SetupState,
    user: User.optional(),
    error_monitoring_enabled: z.boolean(),
    analytics_enabled: z.boolean(),
    thumbnails_enabled: z.boolean(),
    deployment_id: z.string(),
    auth_state: AuthState,
    license: z.object({ company_name: z.string(), license_id: z.string() }).optional(),
    version: z.string(),
    environment: z.enum(['production', 'development']),
    versions_url: z.string().optional().describe('Where the web app reads the list of releases'),
  })
  .meta({ id: 'AppState' });
export type AppState = z.infer<typeof AppState>;

export const Health = z
  .object({
    status: z.literal('ok'),
    version: z.string(),
    database: z.enum(['sqlite', 'postgres']),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof Health>;

export const SupportBundleRequest = z
  .object({
    client_state: z
      .union([z.string().max(1_000_000), boundedRecord(z.string(), z.unknown(), 10_000)])
      .optional()
      .describe('Environment, navigator and local-storage data from the browser'),
  })
  .meta({ id: 'SupportBundleRequest' });
export type SupportBundleRequest = z.infer<typeof SupportBundleRequest>;

/** A file of the Python SDK's package index, by its wheel file name. */
export const SdkFileParams = z.object({ filename: z.string() });
export type SdkFileParams = z.input<typeof SdkFileParams>;
