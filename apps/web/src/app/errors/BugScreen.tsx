// 'Internal Error': the screen for a bug in our code, with the error report, the support report
// and a way home (docs/product.md, Shell §2, §8).
import { DownloadOutlined, HomeOutlined } from '@ant-design/icons';
import { Button, Flex, Result, Space, Typography } from 'antd';
import { describeError } from '../../api/ApiError';
import { commonStrings } from '../../components/strings';
import { downloadErrorReport } from '../../lib/errorReport';
import { SupportBundleButton } from '../../components/SupportBundleButton';

export function BugScreen({ error }: { error: unknown }) {
  const detail =
    error === undefined || error === null ? commonStrings.unparsable : describeError(error);
  return (
    <Flex align="center" justify="center" style={{ minHeight: '100vh', padding: 24 }}>
      <Result
        status="500"
        title={commonStrings.internalError}
        subTitle={
          <Flex vertical gap={4}>
            <Typography.Text strong>{commonStrings.bug}</Typography.Text>
            <Typography.Text type="secondary">{detail}</Typography.Text>
          </Flex>
        }
        extra={
          <Space wrap style={{ justifyContent: 'center' }}>
            <Button icon={<DownloadOutlined />} onClick={() => downloadErrorReport(error)}>
              {commonStrings.downloadErrorReport}
            </Button>
            <SupportBundleButton label={commonStrings.downloadSupportReport} />
            <Button type="primary" icon={<HomeOutlined />} href="/">
              {commonStrings.goToHome}
            </Button>
          </Space>
        }
      />
    </Flex>
  );
}
