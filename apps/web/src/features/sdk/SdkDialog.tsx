// The SDK dialog (docs/product.md, Shell §2), opened from Getting started and from the Add Dataset modal.
import { Button, Modal, Typography } from 'antd';
import { SdkSteps } from './SdkSteps';
import { sdkStrings as strings } from './strings';

export function SdkDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal
      open={open}
      title={strings.title}
      onCancel={onClose}
      width={720}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose}>
          {strings.done}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{strings.intro}</Typography.Paragraph>
      <SdkSteps />
    </Modal>
  );
}
