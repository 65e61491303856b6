// The profile menu: who is signed in, the company (click copies), the app version, a new
// version when one is out, the theme, Change Password and Log out (docs/product.md, Shell §2).
import { ArrowUpOutlined, CopyOutlined, KeyOutlined, LogoutOutlined } from '@ant-design/icons';
import { isAdmin } from '@loupe/contracts';
import { App, Avatar, Button, Divider, Flex, Popover, Tooltip, Typography, theme } from 'antd';
import { useState, type ReactNode } from 'react';
import { describeError } from '../../api/ApiError';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { ThemeChoice } from '../../app/theme/ThemeChoice';
import { DisabledTooltip } from '../../components/DisabledTooltip';
import { useCopyToClipboard } from '../../lib/useCopyToClipboard';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { useLogout } from './hooks/useLogout';
import { useNewVersion } from './hooks/useNewVersion';
import { profileStrings } from './strings';

export function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0], parts[parts.length - 1]] : parts;
  return (
    letters
      .map((part) => Array.from(part ?? '')[0] ?? '')
      .join('')
      .toUpperCase() || '?'
  );
}

export interface ProfileMenuProps {
  /** What opens the menu; the navigation draws it. */
  renderTrigger: (props: { name: string; initials: string }) => ReactNode;
}

export function ProfileMenu({ renderTrigger }: ProfileMenuProps) {
  const state = useLoadedAppState();
  const user = state.user;
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const [open, setOpen] = useState(false);
  const [changingPassword, setChangingPassword] = useState(false);
  const { copied, copy } = useCopyToClipboard();
  const logout = useLogout();
  const newVersion = useNewVersion(state.versions_url, state.version).data;
  if (!user) return null;
  const external = user.auth_type === 'oauth' || state.auth_state.type === 'oauth';

  const content = (
    <Flex vertical style={{ width: 280 }} data-testid="profile-menu">
      <Flex gap={12} align="center" style={{ padding: '4px 4px 0' }}>
        <Avatar style={{ background: token.colorPrimary, flexShrink: 0 }}>
          {initials(user.name)}
        </Avatar>
        <Flex vertical style={{ minWidth: 0 }}>
          <Typography.Text strong ellipsis>
            {user.name}
          </Typography.Text>
          <Typography.Text type="secondary" ellipsis>
            {user.email}
          </Typography.Text>
        </Flex>
      </Flex>
      <Divider style={{ margin: '12px 0' }} />
      <Tooltip
        title={copied ? profileStrings.copied : profileStrings.companyCopyHint}
        placement="left"
      >
        <Button
          type="text"
          block
          style={{ justifyContent: 'space-between', height: 'auto', padding: '6px 8px' }}
          onClick={() => void copy(user.company_name)}
          aria-label={`${profileStrings.company}: ${user.company_name}`}
        >
          <Flex vertical align="flex-start" style={{ minWidth: 0 }}>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {profileStrings.company}
            </Typography.Text>
            <Typography.Text ellipsis>{user.company_name}</Typography.Text>
          </Flex>
          {copied ? (
            <Typography.Text type="success">{profileStrings.copied}</Typography.Text>
          ) : (
            <CopyOutlined />
          )}
        </Button>
      </Tooltip>
      <Flex vertical gap={6} style={{ padding: '6px 8px' }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {profileStrings.theme}
        </Typography.Text>
        <ThemeChoice label={profileStrings.theme} />
      </Flex>
      <Typography.Text type="secondary" style={{ padding: '6px 8px', fontSize: 12 }}>
        {profileStrings.version(state.version)}
      </Typography.Text>
      {newVersion && (
        <Flex
          vertical
          gap={4}
          style={{
            margin: '4px 0',
            padding: '8px 10px',
            borderRadius: token.borderRadius,
            background: token.colorInfoBg,
          }}
          data-testid="new-version"
        >
          <Typography.Text strong>
            <ArrowUpOutlined /> {profileStrings.newVersion(newVersion.version)}
          </Typography.Text>
          <Flex gap={12}>
            <Typography.Link href={newVersion.changelogUrl} target="_blank" rel="noreferrer">
              {profileStrings.changelog}
            </Typography.Link>
            {isAdmin(user) && (
              <Typography.Link href={newVersion.upgradeUrl} target="_blank" rel="noreferrer">
                {profileStrings.upgradeInstructions}
              </Typography.Link>
            )}
          </Flex>
        </Flex>
      )}
      <Divider style={{ margin: '8px 0' }} />
      <DisabledTooltip
        reason={
          external
            ? profileStrings.changePasswordExternal(state.auth_state.oauth_provider_display_name)
            : null
        }
        block
      >
        <Button
          type="text"
          block
          icon={<KeyOutlined />}
          style={{ justifyContent: 'flex-start' }}
          disabled={external}
          onClick={() => {
            setOpen(false);
            setChangingPassword(true);
          }}
        >
          {profileStrings.changePassword}
        </Button>
      </DisabledTooltip>
      <Button
        type="text"
        block
        icon={<LogoutOutlined />}
        style={{ justifyContent: 'flex-start' }}
        loading={logout.isPending}
        onClick={() =>
          logout.mutate(undefined, {
            onError: (error) => message.error(profileStrings.logoutFailed(describeError(error))),
          })
        }
      >
        {profileStrings.logOut}
      </Button>
    </Flex>
  );

  return (
    <>
      <Popover
        content={content}
        trigger="click"
        placement="rightBottom"
        open={open}
        onOpenChange={setOpen}
        arrow={false}
      >
        <span>{renderTrigger({ name: user.name, initials: initials(user.name) })}</span>
      </Popover>
      <ChangePasswordDialog open={changingPassword} onClose={() => setChangingPassword(false)} />
    </>
  );
}
