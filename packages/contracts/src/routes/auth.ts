// Sign-in, sign-out, password change and reset (docs/api.md, "Accounts and API keys").
import {
  ChangePasswordRequest,
  LoginRequest,
  ResetPasswordRequest,
  SessionResponse,
} from '../auth.js';
import { Ok } from '../errors.js';
import { defineRoute } from './define.js';

const tags = ['auth'];

export const auth = {
  login: defineRoute({
    method: 'POST',
    path: '/api/login',
    body: LoginRequest,
    responses: { 200: SessionResponse },
    errors: [400, 401, 429],
    auth: 'public',
    license: false,
    summary: 'Sign in with email and password',
    tags,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/api/logout',
    responses: { 200: Ok },
    errors: [],
    auth: 'public',
    license: false,
    summary: 'Sign out',
    tags,
  }),
  changePassword: defineRoute({
    method: 'PUT',
    path: '/api/profile/password',
    body: ChangePasswordRequest,
    responses: { 200: Ok },
    errors: [400, 401, 403],
    auth: 'user',
    license: false,
    summary: "Change the signed-in user's password",
    tags,
  }),
  resetPassword: defineRoute({
    method: 'PUT',
    path: '/api/reset-password',
    body: ResetPasswordRequest,
    responses: { 200: Ok },
    errors: [400, 429],
    auth: 'public',
    license: false,
    summary: 'Set a new password with a reset token',
    tags,
  }),
};
