// Sign-in, first-run setup, password change and reset, API keys (docs/product.md, Shell §3, §7).
import { z } from 'zod';
import { User } from './users.js';
import { CompanyName, Email, NewPassword, PersonName, messages } from './validation.js';

export const SetupRequest = z
  .object({
    company: CompanyName,
    user: z
      .object({
        username: PersonName,
        email: Email,
        password: NewPassword,
      })
      .optional(),
  })
  .meta({ id: 'SetupRequest' });
export type SetupRequest = z.input<typeof SetupRequest>;

export const LoginRequest = z
  .object({
    email: z.string().max(320),
    password: z.string().min(1, messages.required('Password')).max(1024),
    remember: z.boolean().default(false),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.input<typeof LoginRequest>;

export const SessionResponse = z.object({ user: User }).meta({ id: 'SessionResponse' });
export type SessionResponse = z.infer<typeof SessionResponse>;

export const ChangePasswordRequest = z
  .object({
    oldPassword: z.string().min(1, messages.currentPasswordRequired).max(1024),
    newPassword: NewPassword,
    revokeApiKeys: z
      .boolean()
      .default(false)
      .describe(
        "Also revoke every API key of the user (the 'Development' key is re-created on its next read)",
      ),
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const ResetPasswordRequest = z
  .object({
    token: z.string().min(1, messages.required('Token')).max(200),
    newPassword: NewPassword,
    revokeApiKeys: z
      .boolean()
      .default(true)
      .describe('Also revoke every API key of the user; false keeps them working'),
  })
  .meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;

export const API_KEY_NAME_MAX_LENGTH = 64;

export const apiKeyMessages = {
  nameTaken: 'An API key with that name already exists.',
  nameTooLong: `API key name must be at most ${API_KEY_NAME_MAX_LENGTH} characters long.`,
  notFound: 'No such API key.',
} as const;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    created_at: z.number().describe('Milliseconds since the epoch'),
    last_used_at: z
      .number()
      .nullable()
      .describe(
        'Milliseconds since the epoch, recorded at most once a minute; null when never used',
      ),
    hint: z
      .string()
      .describe("Not secret: the key's prefix and last four characters, e.g. lp_…3f9a"),
    default: z.boolean().describe("True for the 'Development' key of the SDK dialog"),
  })
  .meta({ id: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKey>;

export const ApiKeyList = z
  .object({ api_keys: z.array(ApiKey).describe("The caller's own keys, oldest first") })
  .meta({ id: 'ApiKeyList' });
export type ApiKeyList = z.infer<typeof ApiKeyList>;

export const ApiKeyName = z
  .string()
  .trim()
  .min(1, { message: messages.required('Name'), abort: true })
  .max(API_KEY_NAME_MAX_LENGTH, apiKeyMessages.nameTooLong);
export type ApiKeyName = z.infer<typeof ApiKeyName>;

export const CreateApiKeyRequest = z
  .object({ name: ApiKeyName })
  .meta({ id: 'CreateApiKeyRequest' });
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;

export const CreatedApiKey = ApiKey.extend({
  api_key: z.string().describe('The secret: shown once, never again'),
}).meta({ id: 'CreatedApiKey' });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const ApiKeyIdParams = z.object({ id: z.uuid('id must be an API key id (UUID)') });
export type ApiKeyIdParams = z.input<typeof ApiKeyIdParams>;
