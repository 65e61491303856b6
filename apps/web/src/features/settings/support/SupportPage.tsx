// Settings → Support: the support bundle download and clearing this browser's preferences.
import { ClearOutlined, CustomerServiceOutlined } from '@ant-design/icons';
import { App, Button, Card, Flex, Typography } from 'antd';
import { clearLoupeStorage } from '../../../lib/storage';
import { downloadSupportBundle } from '../../../lib/supportBundle';
import { settingsStrings } from '../strings';

const strings = settingsStrings.support;

export function SupportPage() {
  const { message } = App.useApp();
  return (
    <Flex vertical gap={16} style={{ maxWidth: 720 }}>
      <Card title={strings.title}>
        <Typography.Paragraph type="secondary">{strings.intro}</Typography.Paragraph>
        <Button type="primary" icon={<CustomerServiceOutlined />} onClick={downloadSupportBundle}>
          {strings.download}
        </Button>
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
