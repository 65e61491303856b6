// The new-version check calls the network only when the instance names a versions file.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, expect, test, vi } from 'vitest';
import { useNewVersion } from './useNewVersion';

afterEach(() => vi.unstubAllGlobals());

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

test('without a versions file, nothing is fetched', async () => {
  const fetch = vi.fn(() => Promise.resolve(Response.json({})));
  vi.stubGlobal('fetch', fetch);
  const { result } = renderHook(() => useNewVersion(undefined, '1.4.0'), { wrapper });
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(fetch).not.toHaveBeenCalled();
  expect(result.current.data).toBeUndefined();
});

test('with one, it is read once', async () => {
  const fetch = vi.fn(() =>
    Promise.resolve(Response.json({ latest: { version: '1.5.0', slug: 'v1-5-0' } })),
  );
  vi.stubGlobal('fetch', fetch);
  const { result } = renderHook(
    () => useNewVersion('https://releases.example.com/versions.json', '1.4.0'),
    { wrapper },
  );
  await waitFor(() => expect(result.current.data).toBeTruthy());
  expect(fetch).toHaveBeenCalledTimes(1);
});
