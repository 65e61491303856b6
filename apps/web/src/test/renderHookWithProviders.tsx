// Renders a hook inside what the app gives every component: a query client (the app's, with
// its retry rule) and a router at a path, whose current location the test can read.
import { QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { createQueryClient } from '../api/queryClient';

export function renderHookWithProviders<Result, Props>(
  hook: (props: Props) => Result,
  { path = '/', initialProps }: { path?: string; initialProps?: Props } = {},
) {
  const queryClient = createQueryClient({ onUnauthorized: () => undefined });
  let current = path;
  function LocationProbe() {
    const { pathname, search, hash } = useLocation();
    current = `${pathname}${search}${hash}`;
    return null;
  }
  const view = renderHook(hook, {
    initialProps,
    wrapper: ({ children }) => (
      <QueryClientProvider client={queryClient}>
        <MemoryRouter initialEntries={[path]}>
          {children}
          <LocationProbe />
        </MemoryRouter>
      </QueryClientProvider>
    ),
  });
  return { ...view, queryClient, location: () => current };
}
