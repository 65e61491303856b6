// 'Add Dataset': source tabs SDK, AMAZON S3, V7 Labs, CVAT (docs/product.md, Datasets §2, §8). The SDK tab
// works; the import tabs ask for credentials until the integrations arrive.
import { ApiOutlined } from '@ant-design/icons';
import { Alert, Button, Flex, Modal, Skeleton, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useLicense } from '../../../api/hooks/useLicense';
import { SdkDialog, UploadSnippet, useSdkSetup } from '../../sdk';
import { datasetStrings as strings } from '../strings';

export type AddDatasetTab = 'sdk' | 's3' | 'v7' | 'cvat';

/** The product's default tab: S3 when it is connected, else V7. */
export function defaultAddDatasetTab(s3Connected: boolean): AddDatasetTab {
  return s3Connected ? 's3' : 'v7';
}

function SettingsMessage({ message, to }: { message: string; to: string }) {
  const navigate = useNavigate();
  return (
    <Alert
      type="warning"
      showIcon
      message={message}
      action={
        <Button size="small" onClick={() => void navigate(to)}>
          {strings.goToSettings}
        </Button>
      }
    />
  );
}

function SdkTab({ licensed, onOpenSdk }: { licensed: boolean; onOpenSdk: () => void }) {
  const setup = useSdkSetup();
  return (
    <Flex vertical gap={16}>
      {!licensed && <SettingsMessage message={strings.setUpLicense} to="/settings/license" />}
      <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
        {strings.sdkIntro}
      </Typography.Paragraph>
      <div>
        <Button icon={<ApiOutlined />} onClick={onOpenSdk}>
          {strings.openSdkSetup}
        </Button>
      </div>
      <Flex vertical gap={8}>
        <Typography.Text strong>{strings.uploadStep}</Typography.Text>
        <Typography.Text type="secondary">{strings.uploadStepHint}</Typography.Text>
        {setup.data ? (
          <UploadSnippet
            kind="samples"
            connection={setup.data}
            copyLabel={`Copy: ${strings.uploadStep}`}
            testId="add-dataset-snippet"
          />
        ) : (
          <Skeleton active paragraph={{ rows: 3 }} title={false} />
        )}
      </Flex>
    </Flex>
  );
}

export function AddDatasetModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const license = useLicense();
  // Until the license is known, do not warn about it.
  const licensed = !license.data || license.data.state === 'LICENSED';
  const [sdkOpen, setSdkOpen] = useState(false);
  const importMessage = (credentials: string) => (
    <SettingsMessage
      message={licensed ? credentials : strings.setUpLicense}
      to={licensed ? '/settings/integrations' : '/settings/license'}
    />
  );
  return (
    <>
      <Modal
        open={open}
        title={strings.addDatasetTitle}
        onCancel={onClose}
        footer={null}
        width={760}
        destroyOnHidden
      >
        <Tabs
          defaultActiveKey={defaultAddDatasetTab(false)}
          items={[
            {
              key: 'sdk',
              label: strings.tabs.sdk,
              children: <SdkTab licensed={licensed} onOpenSdk={() => setSdkOpen(true)} />,
            },
            { key: 's3', label: strings.tabs.s3, children: importMessage(strings.setUpS3) },
            { key: 'v7', label: strings.tabs.v7, children: importMessage(strings.setUpV7) },
            { key: 'cvat', label: strings.tabs.cvat, children: importMessage(strings.setUpCvat) },
          ]}
        />
      </Modal>
      <SdkDialog open={sdkOpen} onClose={() => setSdkOpen(false)} />
    </>
  );
}
