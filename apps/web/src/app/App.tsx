// The app: providers (query client, theme), the app-state gate and the router.
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { createQueryClient } from '../api/queryClient';
import { serverUnreachable } from '../api/unreachable';
import { AppErrorBoundary } from './errors/AppErrorBoundary';
import { AppStateGate } from './AppStateGate';
import { routes } from './routes';
import { ThemeProvider } from './theme/ThemeProvider';

export function App({ queryClient }: { queryClient?: QueryClient }) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <ThemeProvider>
      <AppErrorBoundary>
        <QueryClientProvider client={client}>
          <AppStateGate>
            <RouterProvider router={router} />
          </AppStateGate>
        </QueryClientProvider>
      </AppErrorBoundary>
    </ThemeProvider>
  );
}

// The gate shows its own error page when the first call fails; the dialog is for later calls.
serverUnreachable.clear();
