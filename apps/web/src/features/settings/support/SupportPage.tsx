// Settings → Support: the support bundle download and clearing this browser's preferences.
import { ClearOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Typography } from 'antd';
import { clearLoupeStorage } from '../../../lib/storage';
import { SupportBundleButton } from '../../../components/SupportBundleButton';
import { settingsStrings } from '../strings';

const strings = settingsStrings.support;

export function SupportPage() {
  const { message } = App.useApp();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 720 }}>
      <Card title={strings.title}>
        <Typography.Paragraph type="secondary">{strings.intro}</Typography.Paragraph>
        <SupportBundleButton type="primary" label={strings.download} />
      </Card>
      <Card title={strings.preferencesTitle}>
        <Typography.Paragraph type="secondary">{strings.preferencesText}</Typography.Paragraph>
        <Button
          icon={<ClearOutlined />}
          onClick={() => {
            clearLoupeStorage();
            message.success(strings.cleared);
          }}
        >
          {strings.clearPreferences}
        </Button>
      </Card>
    </Flex>
  );
}
