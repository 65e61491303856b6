// The SDK dialog (docs/product.md, Shell §2), opened from Getting started and from the Add Dataset
// and Add Model modals: install, configure, and a first upload for the chosen task type (or for
// the dataset in context), with the SDK documentation a click away.
import { Button, Flex, Modal, Typography } from 'antd';
import { SdkDocsLink } from './SdkDocs';
import { SdkSteps } from './SdkSteps';
import type { SnippetDataset } from './sdkSnippets';
import { sdkStrings as strings } from './strings';

export interface SdkDialogProps {
  open: boolean;
  onClose: () => void;
  /** A dataset in context: the upload step adds samples to it. */
  dataset?: SnippetDataset;
}

export function SdkDialog({ open, onClose, dataset }: SdkDialogProps) {
  return (
    <Modal
      open={open}
      title={strings.title}
      onCancel={onClose}
      width={800}
      destroyOnHidden
      footer={
        <Flex justify="space-between" align="center">
          <SdkDocsLink />
          <Button type="primary" onClick={onClose}>
            {strings.done}
          </Button>
        </Flex>
      }
    >
      <Typography.Paragraph type="secondary">{strings.intro}</Typography.Paragraph>
      <SdkSteps dataset={dataset} />
    </Modal>
  );
}
