// Query factories for the settings reads: the development API key, the named API keys, the
// license and the SDK tokens (docs/product.md, Shell §7).
import { api } from '@loupe/contracts';
import { queryOptions } from '@tanstack/react-query';
import { call } from '../client';
import { queryKeys } from '../queryKeys';

export const apiKeyQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.apiKey(),
    queryFn: ({ signal }) => call(api.settings.developmentKey, {}, { signal }),
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.apiKeys(),
    queryFn: ({ signal }) => call(api.apiKeys.list, {}, { signal }),
  });

export const licenseQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.license(),
    queryFn: ({ signal }) => call(api.settings.license, {}, { signal }),
  });

export const tokensQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.tokens(),
    queryFn: ({ signal }) => call(api.settings.tokens, {}, { signal }),
  });
