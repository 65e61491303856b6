// The SDK steps: install from this instance, configure with the address and keys, then a first
// upload (the client then needs no arguments: configure saved them).
import { Flex, Skeleton, Steps, Typography } from 'antd';
import { ErrorFallback } from '../../components/ErrorFallback';
import { useSdkSetup } from './hooks/useSdkSetup';
import { CodeBlock } from './CodeBlock';
import { configureCommand, installCommand } from './sdkCommands';
import type { SnippetDataset } from './sdkSnippets';
import { sdkStrings as strings } from './strings';
import { UploadSnippet } from './UploadSnippet';

export function SdkSteps({ dataset }: { dataset?: SnippetDataset }) {
  const setup = useSdkSetup();
  if (setup.error) {
    return <ErrorFallback title={strings.loadFailed} error={setup.error} onRetry={setup.refetch} />;
  }
  if (!setup.data) return <Skeleton active paragraph={{ rows: 4 }} />;
  const { origin, sdkIndexUrl, apiKey, licenseKey } = setup.data;
  return (
    <Steps
      direction="vertical"
      current={-1}
      items={[
        {
          title: strings.step1,
          status: 'process',
          description: (
            <Flex vertical gap={8} style={{ paddingBlock: 8 }}>
              <Typography.Text type="secondary">{strings.step1Hint}</Typography.Text>
              <CodeBlock
                code={installCommand(sdkIndexUrl)}
                copyLabel={strings.copyCommand(strings.step1)}
                testId="sdk-install-command"
              />
            </Flex>
          ),
        },
        {
          title: strings.step2,
          status: 'process',
          description: (
            <Flex vertical gap={8} style={{ paddingBlock: 8 }}>
              <Typography.Text type="secondary">
                {licenseKey ? strings.step2Hint : strings.step2HintNoLicense}
              </Typography.Text>
              <CodeBlock
                code={configureCommand(origin, apiKey, licenseKey)}
                copyLabel={strings.copyCommand(strings.step2)}
                testId="sdk-configure-command"
              />
            </Flex>
          ),
        },
        {
          title: strings.step3,
          status: 'process',
          description: (
            <Flex vertical gap={8} style={{ paddingBlock: 8 }}>
              <Typography.Text type="secondary">{strings.step3Hint}</Typography.Text>
              <UploadSnippet
                kind="samples"
                connection={null}
                dataset={dataset}
                copyLabel={strings.copyCommand(strings.step3)}
                testId="sdk-upload-snippet"
              />
            </Flex>
          ),
        },
      ]}
    />
  );
}
