// Users and roles (docs/product.md, Shell §3, §6).
import { z } from 'zod';
import { Email, PersonName } from './validation.js';

export const Role = z.enum(['admin', 'member']).meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const AuthType = z.enum(['local', 'oauth']).meta({ id: 'AuthType' });
export type AuthType = z.infer<typeof AuthType>;

export const User = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: Role,
    enabled: z.boolean(),
    company_name: z.string(),
    auth_type: AuthType,
    mixpanel_id: z.string().optional(),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const UserList = z.array(User).meta({ id: 'UserList' });
export type UserList = z.infer<typeof UserList>;

export const UserIdParams = z.object({ id: z.uuid('id must be a user id (UUID)') });
export type UserIdParams = z.input<typeof UserIdParams>;

export const CreateUserRequest = z
  .object({ email: Email, name: PersonName, role: Role.default('member') })
  .meta({ id: 'CreateUserRequest' });
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

export const UpdateUserRequest = z
  .object({ name: PersonName.optional(), role: Role.optional(), enabled: z.boolean().optional() })
  .refine((body) => Object.values(body).some((value) => value !== undefined), {
    message: 'Nothing to update: give name, role or enabled.',
  })
  .meta({ id: 'UpdateUserRequest' });
export type UpdateUserRequest = z.input<typeof UpdateUserRequest>;

export const ResetPasswordToken = z
  .object({
    token: z.string(),
    expires_ts: z.number().describe('When the token stops working, in seconds since the epoch'),
  })
  .meta({ id: 'ResetPasswordToken' });
export type ResetPasswordToken = z.infer<typeof ResetPasswordToken>;

/** Admin rights apply only to enabled admins (docs/product.md, Shell §6). */
export function isAdmin(user: Pick<User, 'role' | 'enabled'> | undefined | null): boolean {
  return Boolean(user && user.enabled && user.role === 'admin');
}
