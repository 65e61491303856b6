// 'Add Model' (docs/product.md, Models §2): integrate the model with the SDK, then upload predictions
// with a snippet carrying the user's API key and this instance's address.
import { ApiOutlined } from '@ant-design/icons';
import { Button, Flex, Modal, Skeleton, Steps, Typography } from 'antd';
import { useState } from 'react';
import { SdkDialog, UploadSnippet, useSdkSetup } from '../sdk';
import { modelStrings as strings } from './strings';

export function AddModelModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [sdkOpen, setSdkOpen] = useState(false);
  const setup = useSdkSetup(open);
  return (
    <>
      <Modal
        open={open}
        title={strings.addModelTitle}
        onCancel={onClose}
        footer={null}
        width={760}
        destroyOnHidden
      >
        <Steps
          direction="vertical"
          current={-1}
          items={[
            {
              title: strings.step1,
              status: 'process',
              description: (
                <Flex vertical gap={8} align="flex-start" style={{ paddingBlock: 8 }}>
                  <Typography.Text type="secondary">{strings.step1Text}</Typography.Text>
                  <Button icon={<ApiOutlined />} onClick={() => setSdkOpen(true)}>
                    {strings.openSdkSetup}
                  </Button>
                </Flex>
              ),
            },
            {
              title: strings.step2,
              status: 'process',
              description: (
                <Flex vertical gap={8} style={{ paddingBlock: 8 }}>
                  <Typography.Text type="secondary">{strings.step2Text}</Typography.Text>
                  {setup.data ? (
                    <UploadSnippet
                      kind="predictions"
                      connection={setup.data}
                      copyLabel={strings.copySnippet}
                      testId="add-model-snippet"
                    />
                  ) : (
                    <Skeleton active title={false} paragraph={{ rows: 3 }} />
                  )}
                </Flex>
              ),
            },
          ]}
        />
      </Modal>
      <SdkDialog open={sdkOpen} onClose={() => setSdkOpen(false)} />
    </>
  );
}
