// A route element that applies guards to everything below it.
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { firstRedirect, type GuardName } from './guards';

export function Guard({ guards }: { guards: readonly GuardName[] }) {
  const state = useLoadedAppState();
  const location = useLocation();
  const target = firstRedirect(guards, state, location);
  if (target !== null) return <Navigate to={target} replace />;
  return <Outlet />;
}
