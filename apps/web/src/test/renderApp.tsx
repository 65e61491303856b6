// Renders the real app (providers, app-state gate, route table and guards) at a path, in memory.
import { QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/queryClient';
import { AppStateGate } from '../app/AppStateGate';
import { routes } from '../app/routes';
import { ThemeProvider } from '../app/theme/ThemeProvider';

export function renderApp(path: string, { onUnauthorized = () => undefined } = {}) {
  const queryClient = createQueryClient({ onUnauthorized });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <AppStateGate>
          <RouterProvider router={router} />
        </AppStateGate>
      </QueryClientProvider>
    </ThemeProvider>,
  );
  const location = () => {
    const { pathname, search, hash } = router.state.location;
    return `${pathname}${search}${hash}`;
  };
  return { ...view, router, queryClient, location };
}
