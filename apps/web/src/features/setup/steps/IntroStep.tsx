import { Button, Flex, Typography } from 'antd';
import { setupStrings } from '../strings';

export function IntroStep({ onContinue }: { onContinue: () => void }) {
  return (
    <Flex vertical gap={16}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {setupStrings.introTitle}
      </Typography.Title>
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {setupStrings.introText}
      </Typography.Paragraph>
      <Flex justify="flex-end">
        <Button type="primary" onClick={onContinue} autoFocus>
          {setupStrings.introButton}
        </Button>
      </Flex>
    </Flex>
  );
}
