// The app's TanStack Query client: the retry rule and "a 401 in any query reloads the page".
import { QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from './ApiError';
import { shouldRetryQuery } from './retry';

export interface QueryClientOptions {
  /** What to do on a 401; the page reloads, so the guards send the visitor to login. */
  onUnauthorized?: () => void;
}

export function createQueryClient({
  onUnauthorized = () => window.location.reload(),
}: QueryClientOptions = {}): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error) => {
        if (error instanceof ApiError && error.status === 401) onUnauthorized();
      },
    }),
    defaultOptions: {
      queries: {
        retry: shouldRetryQuery,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: { retry: false },
    },
  });
}
