// The router's error element, for the whole app and for the signed-in area.
import { useRouteError } from 'react-router';
import { BugScreen } from './BugScreen';

export function RouteErrorPage() {
  const error = useRouteError();
  return <BugScreen error={error} />;
}
