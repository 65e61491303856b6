// What a section shows while its report is being computed: a spinner and how far along it is.
import { Flex, Progress, Spin, Typography } from 'antd';
import { performanceStrings as strings } from '../strings';

export function ComputingState({ progress }: { progress: number }) {
  const percent = Math.round(progress * 100);
  return (
    <Flex vertical align="center" gap={8} style={{ padding: 24 }} role="status">
      <Spin />
      <Typography.Text type="secondary">{strings.computingSection}</Typography.Text>
      <Progress percent={percent} size="small" style={{ width: 200 }} />
    </Flex>
  );
}
