// API keys of the signed-in user: list, create, rotate, revoke.
import {
  ApiKeyIdParams,
  ApiKeyList,
  CreateApiKeyRequest,
  CreatedApiKey,
  Ok,
} from '@loupe/contracts';
import type { FastifyRequest } from 'fastify';
import { actorOf } from '../http/context.js';
import { Forbidden } from '../http/errors.js';
import { errors, type TypedApp } from '../http/route-kit.js';
import type { ApiKeysService } from './api-keys.service.js';

/**
 * Minting, rotating and revoking keys needs a signed-in session: a leaked key must not be able to
 * make itself new keys that outlive its revocation, nor rotate its owner's keys away.
 */
function sessionActorOf(request: FastifyRequest) {
  const actor = actorOf(request);
  if (!request.sessionToken) {
    throw new Forbidden('API keys are managed from a signed-in session, not with an API key.');
  }
  return actor;
}

export function apiKeysRoutes(app: TypedApp, services: { apiKeys: ApiKeysService }): void {
  app.get(
    '/api/api_keys',
    {
      schema: {
        tags: ['auth'],
        summary: "The signed-in user's API keys, oldest first (never their secrets)",
        response: { 200: ApiKeyList, ...errors(401) },
      },
    },
    (request) => services.apiKeys.list(actorOf(request)),
  );

  app.post(
    '/api/api_keys',
    {
      schema: {
        tags: ['auth'],
        summary: 'Create a named API key; its secret is in this answer only',
        body: CreateApiKeyRequest,
        response: { 201: CreatedApiKey, ...errors(400, 401, 403, 409) },
      },
    },
    async (request, reply) => {
      const created = await services.apiKeys.create(sessionActorOf(request), request.body.name);
      return reply.status(201).send(created);
    },
  );

  app.post(
    '/api/api_keys/:id/rotate',
    {
      schema: {
        tags: ['auth'],
        summary: 'Give an API key a new secret; the old one stops working at once',
        params: ApiKeyIdParams,
        response: { 200: CreatedApiKey, ...errors(400, 401, 403, 404) },
      },
    },
    (request) => services.apiKeys.rotate(sessionActorOf(request), request.params.id),
  );

  app.delete(
    '/api/api_keys/:id',
    {
      schema: {
        tags: ['auth'],
        summary: 'Revoke an API key at once',
        params: ApiKeyIdParams,
        response: { 200: Ok, ...errors(400, 401, 403, 404) },
      },
    },
    async (request) => {
      await services.apiKeys.revoke(sessionActorOf(request), request.params.id);
      return { ok: true as const };
    },
  );
}
