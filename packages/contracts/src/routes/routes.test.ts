import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { api, isRaw, routes } from './index.js';

const named = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]);

describe('the route table', () => {
  it('names each endpoint once, by method and path', () => {
    const keys = routes.map(({ route }) => `${route.method} ${route.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    expect(routes.length).toBeGreaterThanOrEqual(60);
    expect(routes.find(({ route }) => route === api.users.create)?.name).toBe('users.create');
  });

  it('gives every path parameter a params schema key, and no more', () => {
    for (const { name, route } of routes) {
      const keys = route.params ? Object.keys((route.params as z.ZodObject).shape) : [];
      expect(keys.sort(), name).toEqual(named(route.path).sort());
    }
  });

  it('lists error statuses once, in order, with a body for each special one', () => {
    for (const { name, route } of routes) {
      expect(
        [...route.errors].sort((a, b) => a - b),
        name,
      ).toEqual([...new Set(route.errors)]);
      for (const status of Object.keys(route.errorBodies ?? {}))
        expect(route.errors, name).toContain(Number(status));
    }
  });

  it('answers 403 where a license, an admin or a session is needed', () => {
    for (const { name, route } of routes) {
      if (route.license || route.auth === 'admin' || route.auth === 'session')
        expect(route.errors, name).toContain(403);
    }
  });

  it('answers 401 on every signed-in JSON route', () => {
    for (const { name, route } of routes) {
      if (route.auth !== 'public' && !isRaw(route.responses))
        expect(route.errors, name).toContain(401);
    }
  });

  it('keeps the API under /api, and only the hidden SDK index outside it', () => {
    for (const { name, route } of routes)
      expect(
        route.path.startsWith('/api/') || (route.hidden && route.path.startsWith('/sdk/')),
        name,
      ).toBe(true);
  });
});
