// Sign-in, first-run setup, password change and reset (shell.md §3, §7).
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
  })
  .meta({ id: 'ChangePasswordRequest' });
export type ChangePasswordRequest = z.input<typeof ChangePasswordRequest>;

export const ResetPasswordRequest = z
  .object({
    token: z.string().min(1, messages.required('Token')).max(200),
    newPassword: NewPassword,
  })
  .meta({ id: 'ResetPasswordRequest' });
export type ResetPasswordRequest = z.input<typeof ResetPasswordRequest>;
