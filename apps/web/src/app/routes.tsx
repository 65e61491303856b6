// The route table of docs/product.md, Shell §2 with its guards and error boundaries.
import { Navigate, Outlet, type RouteObject } from 'react-router';
import { LoginPage, ResetPasswordPage } from '../features/auth';
import { settingsRoutes } from '../features/settings';
import { SetupPage } from '../features/setup';
import { datasetRoutes } from './datasetRoutes';
import { NotFoundPage } from './errors/NotFoundPage';
import { RouteErrorPage } from './errors/RouteErrorPage';
import { ServerUnreachableDialog } from './errors/ServerUnreachableDialog';
import { Guard } from './guards/Guard';
import { DEFAULT_PATH } from './guards/redirect';
import { SignedInErrorPage, SignedInLayout } from './layout/SignedInLayout';

function Root() {
  return (
    <>
      <Outlet />
      <ServerUnreachableDialog />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    element: <Root />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <Navigate to={DEFAULT_PATH} replace /> },
      {
        element: <Guard guards={['notInitialized']} />,
        children: [{ path: 'setup', element: <SetupPage /> }],
      },
      {
        element: <Guard guards={['initialized', 'notAuthenticated']} />,
        children: [{ path: 'login', element: <LoginPage /> }],
      },
      {
        element: <Guard guards={['initialized']} />,
        children: [
          { path: 'resetPassword', element: <ResetPasswordPage /> },
          { path: 'resetPassword/:token', element: <ResetPasswordPage /> },
        ],
      },
      {
        element: <Guard guards={['initialized', 'authenticated']} />,
        children: [
          {
            element: <SignedInLayout />,
            children: [
              {
                errorElement: <SignedInErrorPage />,
                children: [...datasetRoutes, ...settingsRoutes],
              },
            ],
          },
        ],
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];
