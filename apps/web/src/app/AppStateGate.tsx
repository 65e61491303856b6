// Loads the app state before any route renders: the guards need it. A failure shows an error
// page (the server unreachable, or initialization failed) with Retry.
import { Flex, Spin } from 'antd';
import type { ReactNode } from 'react';
import { ServerUnreachableError } from '../api/ApiError';
import { useAppState } from '../api/hooks/useAppState';
import { ErrorFallback } from '../components/ErrorFallback';
import { commonStrings } from '../components/strings';

export const INITIALIZATION_FAILED = 'Loupe could not start';

export function AppStateGate({ children }: { children: ReactNode }) {
  const state = useAppState();
  if (state.isPending) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
        <Spin size="large" />
      </Flex>
    );
  }
  if (state.isError) {
    return (
      <Flex align="center" justify="center" style={{ minHeight: '100vh' }}>
        <ErrorFallback
          title={
            state.error instanceof ServerUnreachableError
              ? commonStrings.serverUnreachable
              : INITIALIZATION_FAILED
          }
          error={state.error}
          onRetry={() => void state.refetch()}
        />
      </Flex>
    );
  }
  return <>{children}</>;
}
