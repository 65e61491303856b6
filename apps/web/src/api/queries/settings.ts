// Query factories for the settings reads: the development API key, the named API keys, the
// license and the SDK tokens (docs/product.md, Shell §7).
import { queryOptions } from '@tanstack/react-query';
import { api } from '../endpoints';
import { queryKeys } from '../queryKeys';

export const apiKeyQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.apiKey(),
    queryFn: ({ signal }) => api.getApiKey(signal),
  });

export const apiKeysQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.apiKeys(),
    queryFn: ({ signal }) => api.getApiKeys(signal),
  });

export const licenseQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.license(),
    queryFn: ({ signal }) => api.getLicense(signal),
  });

export const tokensQuery = () =>
  queryOptions({
    queryKey: queryKeys.settings.tokens(),
    queryFn: ({ signal }) => api.getTokens(signal),
  });
