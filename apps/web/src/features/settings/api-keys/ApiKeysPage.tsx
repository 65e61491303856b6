// Settings → API Keys: the 'Development' key with copy (the SDK dialog shows the same one), then
// the user's named keys.
import { KeyOutlined } from '@ant-design/icons';
import { Card, Flex, Input, Typography } from 'antd';
import { CopyButton } from '../../../components/CopyButton';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { useApiKey } from '../hooks/useApiKey';
import { settingsStrings } from '../strings';
import { NamedApiKeys } from './NamedApiKeys';

const strings = settingsStrings.apiKeys;

export function ApiKeysPage() {
  const key = useApiKey();
  if (key.isError) {
    return (
      <ErrorFallback
        title={strings.loadFailed}
        error={key.error}
        onRetry={() => void key.refetch()}
      />
    );
  }
  if (key.isPending) return <DelayedLoading />;
  return (
    <Flex vertical gap={24} style={{ maxWidth: 960 }}>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {strings.intro}
      </Typography.Paragraph>
      <Card
        title={
          <Flex gap={8} align="center">
            <KeyOutlined />
            {key.data.name}
          </Flex>
        }
      >
        <Flex gap={8}>
          <Input.Password
            readOnly
            value={key.data.api_key}
            aria-label={`${key.data.name} API key`}
            style={{ fontFamily: 'monospace' }}
          />
          <CopyButton text={key.data.api_key} label={strings.copy} />
        </Flex>
      </Card>
      <NamedApiKeys />
    </Flex>
  );
}
