// Users: list, invite, edit, reset links (admin rules live in the service).
import {
  CreateUserRequest,
  ResetPasswordToken,
  UpdateUserRequest,
  User,
  UserIdParams,
  UserList,
} from '../users.js';
import { defineRoute } from './define.js';

const tags = ['users'];

export const users = {
  list: defineRoute({
    method: 'GET',
    path: '/api/users',
    responses: { 200: UserList },
    errors: [401],
    auth: 'user',
    license: false,
    summary: 'List users',
    tags,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/users',
    body: CreateUserRequest,
    responses: { 201: User },
    errors: [400, 401, 403, 409],
    auth: 'admin',
    license: false,
    summary: 'Invite a user (admins)',
    tags,
  }),
  update: defineRoute({
    method: 'PUT',
    path: '/api/users/:id',
    params: UserIdParams,
    body: UpdateUserRequest,
    responses: { 200: User },
    errors: [400, 401, 403, 404, 409],
    auth: 'admin',
    license: false,
    summary: 'Change a user’s name, role or enabled state (admins)',
    tags,
  }),
  createResetToken: defineRoute({
    method: 'POST',
    path: '/api/users/:id/reset-password-token',
    params: UserIdParams,
    responses: { 200: ResetPasswordToken },
    errors: [401, 403, 404, 409],
    auth: 'admin',
    license: false,
    summary: 'Create a single-use password reset token valid 24 hours (admins)',
    tags,
  }),
};
