// The user's named API keys: a table with rotate and revoke (each confirmed, since scripts using
// the key stop working at once), and 'Create API key' whose secret is shown once.
import { DeleteOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import type { ApiKey } from '@loupe/contracts';
import { App, Button, Empty, Flex, Space, Table, Tooltip, Typography, theme } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { ApiError, describeError } from '../../../api/ApiError';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { formatRelativeTime } from '../../../lib/relativeTime';
import { useApiKeys, useCreateApiKey, useRevokeApiKey, useRotateApiKey } from '../hooks/useApiKeys';
import { settingsStrings } from '../strings';
import { ApiKeySecretDialog, type NewSecret } from './ApiKeySecretDialog';
import { CreateApiKeyDialog } from './CreateApiKeyDialog';

const strings = settingsStrings.apiKeys;

export function NamedApiKeys() {
  const { message, modal, notification } = App.useApp();
  const { token } = theme.useToken();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useRevokeApiKey();
  const rotate = useRotateApiKey();
  const [creating, setCreating] = useState(false);
  const [nameError, setNameError] = useState<string | null>(null);
  const [secret, setSecret] = useState<NewSecret | null>(null);
  // Set at once, unlike isPending: a second submit in the same moment would otherwise replace the
  // first call's callbacks, and the first key's secret would never be shown.
  const submitting = useRef(false);

  const submitName = (name: string) => {
    if (submitting.current) return;
    submitting.current = true;
    setNameError(null);
    create.mutate(
      { name },
      {
        onSettled: () => {
          submitting.current = false;
        },
        onSuccess: (key) => {
          setCreating(false);
          setSecret({ key, rotated: false });
        },
        onError: (error) => {
          // A taken or refused name belongs on the field; anything else is a toast.
          if (error instanceof ApiError && (error.status === 409 || error.status === 400)) {
            setNameError(error.description);
            return;
          }
          notification.error({ message: strings.createFailed, description: describeError(error) });
        },
      },
    );
  };

  const confirmRotate = (key: ApiKey) =>
    void modal.confirm({
      title: strings.rotateTitle(key.name),
      content: strings.rotateText,
      okText: strings.rotate,
      cancelText: strings.cancel,
      onOk: () =>
        rotate.mutateAsync(key.id).then(
          (rotated) => setSecret({ key: rotated, rotated: true }),
          (error: unknown) =>
            notification.error({
              message: strings.rotateFailed,
              description: describeError(error),
            }),
        ),
    });

  const confirmRevoke = (key: ApiKey) =>
    void modal.confirm({
      title: strings.revokeTitle(key.name),
      content: strings.revokeText,
      okText: strings.revoke,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: () =>
        revoke.mutateAsync(key.id).then(
          () => void message.success(strings.revoked(key.name)),
          (error: unknown) =>
            notification.error({
              message: strings.revokeFailed,
              description: describeError(error),
            }),
        ),
    });

  const closeSecret = () => {
    setSecret(null);
    // Drop the secret from the mutations' memory too: it is shown once.
    create.reset();
    rotate.reset();
  };

  const when = (timestamp: number) => (
    <Tooltip title={new Date(timestamp).toLocaleString()}>
      <span>{formatRelativeTime(timestamp, keys.dataUpdatedAt || Date.now())}</span>
    </Tooltip>
  );

  let body: ReactNode;
  if (keys.isError) {
    body = (
      <ErrorFallback
        title={strings.loadFailed}
        error={keys.error}
        onRetry={() => void keys.refetch()}
      />
    );
  } else if (keys.isPending) {
    body = <DelayedLoading />;
  } else {
    const named = keys.data.api_keys.filter((key) => !key.default);
    body = (
      <Table<ApiKey>
        rowKey="id"
        dataSource={named}
        pagination={named.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
        locale={{
          emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noKeys} />,
        }}
        columns={[
          {
            key: 'name',
            title: strings.name,
            render: (_value, key) => <Typography.Text strong>{key.name}</Typography.Text>,
          },
          {
            key: 'hint',
            title: strings.key,
            render: (_value, key) => (
              <Typography.Text type="secondary" style={{ fontFamily: token.fontFamilyCode }}>
                {key.hint}
              </Typography.Text>
            ),
          },
          { key: 'created', title: strings.created, render: (_value, key) => when(key.created_at) },
          {
            key: 'lastUsed',
            title: strings.lastUsed,
            render: (_value, key) =>
              key.last_used_at === null ? (
                <Typography.Text type="secondary">{strings.never}</Typography.Text>
              ) : (
                when(key.last_used_at)
              ),
          },
          {
            key: 'actions',
            title: strings.actions,
            align: 'right',
            render: (_value, key) => (
              <Space>
                <Button
                  icon={<SyncOutlined />}
                  aria-label={`${strings.rotate} ${key.name}`}
                  onClick={() => confirmRotate(key)}
                >
                  {strings.rotate}
                </Button>
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={`${strings.revoke} ${key.name}`}
                  onClick={() => confirmRevoke(key)}
                >
                  {strings.revoke}
                </Button>
              </Space>
            ),
          },
        ]}
      />
    );
  }

  return (
    <Flex vertical gap={12}>
      <Flex gap={12} justify="space-between" align="flex-end" wrap>
        <Flex vertical gap={4} style={{ flex: 1, minWidth: 240 }}>
          <Typography.Title level={5} style={{ margin: 0 }}>
            {strings.namedTitle}
          </Typography.Title>
          <Typography.Text type="secondary">{strings.namedIntro}</Typography.Text>
        </Flex>
        <Button
          type="primary"
          icon={<PlusOutlined />}
          onClick={() => {
            setNameError(null);
            setCreating(true);
          }}
        >
          {strings.create}
        </Button>
      </Flex>
      {body}
      <CreateApiKeyDialog
        open={creating}
        submitting={create.isPending}
        nameError={nameError}
        onSubmit={submitName}
        onClose={() => setCreating(false)}
      />
      <ApiKeySecretDialog value={secret} onClose={closeSecret} />
    </Flex>
  );
}
