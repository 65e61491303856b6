// API keys of the signed-in user: list, create, rotate, revoke (docs/api.md). Minting, rotating
// and revoking need a session cookie, not an API key (docs/decisions.md).
import { ApiKeyIdParams, ApiKeyList, CreateApiKeyRequest, CreatedApiKey } from '../auth.js';
import { Ok } from '../errors.js';
import { defineRoute } from './define.js';

const tags = ['auth'];

export const apiKeys = {
  list: defineRoute({
    method: 'GET',
    path: '/api/api_keys',
    responses: { 200: ApiKeyList },
    errors: [401],
    auth: 'user',
    license: false,
    summary: "The signed-in user's API keys, oldest first (never their secrets)",
    tags,
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api/api_keys',
    body: CreateApiKeyRequest,
    responses: { 201: CreatedApiKey },
    errors: [400, 401, 403, 409],
    auth: 'session',
    license: false,
    summary: 'Create a named API key; its secret is in this answer only',
    tags,
  }),
  rotate: defineRoute({
    method: 'POST',
    path: '/api/api_keys/:id/rotate',
    params: ApiKeyIdParams,
    responses: { 200: CreatedApiKey },
    errors: [400, 401, 403, 404],
    auth: 'session',
    license: false,
    summary: 'Give an API key a new secret; the old one stops working at once',
    tags,
  }),
  revoke: defineRoute({
    method: 'DELETE',
    path: '/api/api_keys/:id',
    params: ApiKeyIdParams,
    responses: { 200: Ok },
    errors: [400, 401, 403, 404],
    auth: 'session',
    license: false,
    summary: 'Revoke an API key at once',
    tags,
  }),
};
