// Settings → Users: search, add, edit, reset-password links and enable/disable, with every
// permission rule of docs/product.md, Shell §6 shown as a disabled control and its reason.
import { EditOutlined, LinkOutlined, SearchOutlined, UserAddOutlined } from '@ant-design/icons';
import type { User } from '@loupe/contracts';
import {
  App,
  Alert,
  Button,
  Empty,
  Flex,
  Input,
  Space,
  Switch,
  Table,
  Tag,
  Typography,
} from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ApiError, describeError } from '../../../api/ApiError';
import { useLoadedAppState } from '../../../api/hooks/useAppState';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { commonStrings } from '../../../components/strings';
import { useDelayedFlag } from '../../../lib/useDelayedFlag';
import { useCreateUser } from '../hooks/useCreateUser';
import { useResetPasswordLink } from '../hooks/useResetPasswordLink';
import { useUpdateUser } from '../hooks/useUpdateUser';
import { useUsers } from '../hooks/useUsers';
import { settingsStrings } from '../strings';
import { ResetLinkDialog, type ResetLink } from './ResetLinkDialog';
import { UserFormDialog, type UserFormValues } from './UserFormDialog';
import {
  editDenied,
  inviteDenied,
  matchesSearch,
  resetLinkDenied,
  roleChangeDenied,
  toggleEnabledDenied,
} from './userPermissions';

const strings = settingsStrings.users;

type Editing = { mode: 'add' } | { mode: 'edit'; user: User } | null;

export function UsersPage() {
  const state = useLoadedAppState();
  const external = state.auth_state.type === 'oauth';
  if (external) {
    return (
      <Alert
        type="info"
        showIcon
        message={strings.managedExternally(state.auth_state.oauth_provider_display_name)}
      />
    );
  }
  return <LocalUsers me={state.user} />;
}

function LocalUsers({ me }: { me: User | undefined }) {
  const { message, notification } = App.useApp();
  const users = useUsers();
  const createUser = useCreateUser();
  const updateUser = useUpdateUser();
  const resetLink = useResetPasswordLink();
  const [params, setParams] = useSearchParams();
  const [search, setSearch] = useState('');
  const [editing, setEditing] = useState<Editing>(() =>
    params.has('add') && !inviteDenied(me) ? { mode: 'add' } : null,
  );
  const [emailError, setEmailError] = useState<string | null>(null);
  const [link, setLink] = useState<ResetLink | null>(null);
  const slow = useDelayedFlag(users.isPending);

  // The Getting started dialog opens this page with ?add=1; drop it once the form is open.
  useEffect(() => {
    if (params.has('add')) setParams({}, { replace: true });
  }, [params, setParams]);

  const list = useMemo(() => users.data ?? [], [users.data]);
  const visible = useMemo(() => list.filter((user) => matchesSearch(user, search)), [list, search]);

  const showResetLink = (user: User, isNew: boolean) =>
    resetLink.mutate(user.id, {
      onSuccess: ({ link: url }) => setLink({ name: user.name, link: url, isNew }),
      onError: (error) =>
        notification.error({ message: strings.resetLinkFailed, description: describeError(error) }),
    });

  const submitForm = (values: UserFormValues) => {
    if (editing?.mode === 'edit') {
      const { user } = editing;
      updateUser.mutate(
        {
          id: user.id,
          name: values.name,
          ...(values.role !== user.role ? { role: values.role } : {}),
        },
        {
          onSuccess: () => {
            message.success(strings.updated);
            setEditing(null);
          },
          onError: (error) =>
            notification.error({
              message: strings.updateFailed,
              description: describeError(error),
            }),
        },
      );
      return;
    }
    setEmailError(null);
    createUser.mutate(
      { name: values.name, email: values.email, role: values.role },
      {
        onSuccess: (user) => {
          setEditing(null);
          showResetLink(user, true);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setEmailError(error.description);
          notification.error({ message: strings.createFailed, description: describeError(error) });
        },
      },
    );
  };

  const toggleEnabled = (user: User, enabled: boolean) =>
    updateUser.mutate(
      { id: user.id, enabled },
      {
        onError: (error) =>
          notification.error({ message: strings.toggleFailed, description: describeError(error) }),
      },
    );

  if (users.isError) {
    return (
      <ErrorFallback
        title={strings.loadFailed}
        error={users.error}
        onRetry={() => void users.refetch()}
      />
    );
  }

  const denyInvite = inviteDenied(me);

  return (
    <Flex vertical gap={16}>
      <Flex gap={12} justify="space-between" wrap>
        <Input
          allowClear
          prefix={<SearchOutlined />}
          placeholder={strings.search}
          aria-label={strings.search}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          style={{ maxWidth: 320 }}
        />
        <DisabledTooltip reason={denyInvite}>
          <Button
            type="primary"
            icon={<UserAddOutlined />}
            disabled={Boolean(denyInvite)}
            onClick={() => {
              setEmailError(null);
              setEditing({ mode: 'add' });
            }}
          >
            {strings.addUser}
          </Button>
        </DisabledTooltip>
      </Flex>
      <Table<User>
        rowKey="id"
        dataSource={visible}
        loading={users.isPending && { tip: slow ? commonStrings.delayedLoading : undefined }}
        pagination={visible.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{
          emptyText: users.isPending ? (
            ' '
          ) : (
            <Empty
              image={Empty.PRESENTED_IMAGE_SIMPLE}
              description={search ? strings.noMatch : strings.noUsers}
            />
          ),
        }}
        rowClassName={(user) => (user.enabled ? '' : 'loupe-user-disabled')}
        columns={[
          {
            key: 'name',
            title: strings.name,
            sorter: (a, b) => a.name.localeCompare(b.name),
            render: (_value, user) => (
              <Space>
                <Typography.Text type={user.enabled ? undefined : 'secondary'}>
                  {user.name}
                </Typography.Text>
                {me?.id === user.id && <Tag>{strings.you}</Tag>}
              </Space>
            ),
          },
          {
            key: 'email',
            title: strings.email,
            dataIndex: 'email',
            sorter: (a, b) => a.email.localeCompare(b.email),
          },
          {
            key: 'role',
            title: strings.role,
            render: (_value, user) => (
              <Tag color={user.role === 'admin' ? 'blue' : undefined}>
                {strings.roles[user.role]}
              </Tag>
            ),
          },
          {
            key: 'status',
            title: strings.status,
            render: (_value, user) => {
              const reason = toggleEnabledDenied(me, user);
              return (
                <DisabledTooltip reason={reason}>
                  <Space>
                    <Switch
                      size="small"
                      checked={user.enabled}
                      disabled={Boolean(reason)}
                      loading={updateUser.isPending && updateUser.variables?.id === user.id}
                      aria-label={`${user.enabled ? strings.enabled : strings.disabled}: ${user.name}`}
                      onChange={(checked) => toggleEnabled(user, checked)}
                    />
                    <Typography.Text type="secondary">
                      {user.enabled ? strings.enabled : strings.disabled}
                    </Typography.Text>
                  </Space>
                </DisabledTooltip>
              );
            },
          },
          {
            key: 'actions',
            title: strings.actions,
            align: 'right',
            render: (_value, user) => {
              const denyEdit = editDenied(me, user);
              const denyReset = resetLinkDenied(me, user);
              return (
                <Space>
                  <DisabledTooltip reason={denyEdit}>
                    <Button
                      icon={<EditOutlined />}
                      disabled={Boolean(denyEdit)}
                      aria-label={`${strings.edit} ${user.name}`}
                      onClick={() => setEditing({ mode: 'edit', user })}
                    >
                      {strings.edit}
                    </Button>
                  </DisabledTooltip>
                  <DisabledTooltip reason={denyReset}>
                    <Button
                      icon={<LinkOutlined />}
                      disabled={Boolean(denyReset)}
                      loading={resetLink.isPending && resetLink.variables === user.id}
                      aria-label={`${strings.resetLink} ${user.name}`}
                      onClick={() => showResetLink(user, false)}
                    >
                      {strings.resetLink}
                    </Button>
                  </DisabledTooltip>
                </Space>
              );
            },
          },
        ]}
      />
      <UserFormDialog
        open={editing !== null}
        user={editing?.mode === 'edit' ? editing.user : undefined}
        roleLocked={editing?.mode === 'edit' ? roleChangeDenied(list, editing.user) : null}
        submitting={createUser.isPending || (editing?.mode === 'edit' && updateUser.isPending)}
        emailError={emailError}
        onSubmit={submitForm}
        onClose={() => setEditing(null)}
      />
      <ResetLinkDialog value={link} onClose={() => setLink(null)} />
    </Flex>
  );
}
