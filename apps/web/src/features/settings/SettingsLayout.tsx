// Settings: the left menu and the chosen section (docs/product.md, Shell §2).
import { Flex, Menu } from 'antd';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { Page } from '../../components/Page';
import { settingsStrings } from './strings';

const strings = settingsStrings.menu;

export const SETTINGS_SECTIONS = [
  { key: 'users', label: strings.users },
  { key: 'api_keys', label: strings.apiKeys },
  { key: 'license', label: strings.license },
  { key: 'integrations', label: strings.integrations },
  { key: 'support', label: strings.support },
  { key: 'appearance', label: strings.appearance, developmentOnly: true },
] as const;

export function SettingsLayout() {
  const { environment } = useLoadedAppState();
  const location = useLocation();
  const navigate = useNavigate();
  const sections = SETTINGS_SECTIONS.filter(
    (section) => !('developmentOnly' in section) || environment === 'development',
  );
  const current = location.pathname.split('/')[2] ?? 'users';
  const section = sections.find((item) => item.key === current);

  return (
    <Page
      title={section?.label ?? settingsStrings.settings}
      breadcrumbs={[{ title: settingsStrings.settings, to: '/settings/users' }]}
      testId={`settings-${current}`}
    >
      <Flex gap={24} align="flex-start">
        <Menu
          mode="inline"
          selectedKeys={[current]}
          items={sections.map((item) => ({ key: item.key, label: item.label }))}
          onClick={({ key }) => void navigate(`/settings/${key}`)}
          style={{ width: 200, flexShrink: 0, borderRadius: 8 }}
          aria-label={settingsStrings.settings}
        />
        <div style={{ flex: 1, minWidth: 0 }}>
          <Outlet />
        </div>
      </Flex>
    </Page>
  );
}

/** Appearance exists only in the development environment; others land on Users. */
export function DevelopmentOnly({ children }: { children: React.ReactNode }) {
  const { environment } = useLoadedAppState();
  if (environment !== 'development') return <Navigate to="/settings/users" replace />;
  return <>{children}</>;
}
