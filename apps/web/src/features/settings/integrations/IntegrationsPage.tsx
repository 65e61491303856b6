// Settings → Integrations: the connections arrive with the import and annotation features
// (out of scope of the shell issue); the page says so instead of showing dead forms.
import { ApiOutlined } from '@ant-design/icons';
import { Empty } from 'antd';
import { settingsStrings } from '../strings';

export function IntegrationsPage() {
  return (
    <Empty
      image={<ApiOutlined style={{ fontSize: 48, opacity: 0.5 }} />}
      description={settingsStrings.integrations.intro}
      style={{ marginTop: 48 }}
    />
  );
}
