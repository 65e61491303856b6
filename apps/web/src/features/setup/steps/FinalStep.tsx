import { CheckCircleFilled } from '@ant-design/icons';
import { Button, Flex, Typography, theme } from 'antd';
import { setupStrings } from '../strings';

export interface FinalStepProps {
  leaving: boolean;
  onFinish: (to: string) => void;
}

export function FinalStep({ leaving, onFinish }: FinalStepProps) {
  const { token } = theme.useToken();
  return (
    <Flex vertical align="center" gap={16} style={{ textAlign: 'center' }}>
      <CheckCircleFilled style={{ fontSize: 56, color: token.colorSuccess }} />
      <Typography.Title level={3} style={{ margin: 0 }}>
        {setupStrings.finalTitle}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0, maxWidth: 480 }}>
        {setupStrings.finalText}{' '}
        <Typography.Link onClick={() => onFinish('/datasets')}>
          {setupStrings.finalDatasets}
        </Typography.Link>{' '}
        {setupStrings.finalDatasetsText}{' '}
        <Typography.Link onClick={() => onFinish('/settings/license')}>
          {setupStrings.finalLicense}
        </Typography.Link>{' '}
        {setupStrings.finalLicenseText}
      </Typography.Paragraph>
      <Button
        type="primary"
        size="large"
        loading={leaving}
        onClick={() => onFinish('/datasets')}
        autoFocus
      >
        {setupStrings.goToDashboard}
      </Button>
    </Flex>
  );
}
