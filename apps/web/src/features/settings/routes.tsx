// The settings routes of docs/product.md, Shell §2.
import { Navigate, type RouteObject } from 'react-router';
import { ApiKeysPage } from './api-keys/ApiKeysPage';
import { AppearancePage } from './appearance/AppearancePage';
import { IntegrationsPage } from './integrations/IntegrationsPage';
import { LicensePage } from './license/LicensePage';
import { DevelopmentOnly, SettingsLayout } from './SettingsLayout';
import { SupportPage } from './support/SupportPage';
import { UsersPage } from './users/UsersPage';

export const settingsRoutes: RouteObject[] = [
  {
    path: 'settings',
    element: <SettingsLayout />,
    children: [
      { index: true, element: <Navigate to="/settings/users" replace /> },
      { path: 'users', element: <UsersPage /> },
      { path: 'api_keys', element: <ApiKeysPage /> },
      { path: 'license', element: <LicensePage /> },
      { path: 'integrations', element: <IntegrationsPage /> },
      { path: 'support', element: <SupportPage /> },
      {
        path: 'appearance',
        element: (
          <DevelopmentOnly>
            <AppearancePage />
          </DevelopmentOnly>
        ),
      },
    ],
  },
];
