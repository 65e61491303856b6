// The application state read on start (GET /api/state). It changes only through sign-in,
// sign-out, setup and license changes, which refresh it explicitly.
import type { AppState } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { appStateQuery } from '../queries/session';

export function useAppState() {
  return useQuery(appStateQuery());
}

/** The loaded app state; only for components rendered below the app-state gate. */
export function useLoadedAppState(): AppState {
  const { data } = useAppState();
  if (!data) throw new Error('The app state is not loaded yet.');
  return data;
}
