// Shows a reset-password link with a copy button.
import { Button, Flex, Input, Modal, Typography } from 'antd';
import { CopyButton } from '../../../components/CopyButton';
import { settingsStrings } from '../strings';

const strings = settingsStrings.users;

export interface ResetLink {
  name: string;
  link: string;
  /** True right after the user was created. */
  isNew: boolean;
}

export function ResetLinkDialog({
  value,
  onClose,
}: {
  value: ResetLink | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={value !== null}
      title={strings.resetLinkTitle}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose}>
          {strings.done}
        </Button>
      }
      destroyOnHidden
    >
      {value && (
        <Flex vertical gap={12}>
          <Typography.Paragraph style={{ margin: 0 }}>
            {value.isNew ? strings.newUserLinkText(value.name) : strings.resetLinkText(value.name)}
          </Typography.Paragraph>
          <Flex gap={8}>
            <Input
              readOnly
              value={value.link}
              aria-label={strings.resetLinkTitle}
              data-testid="reset-link"
            />
            <CopyButton text={value.link} />
          </Flex>
        </Flex>
      )}
    </Modal>
  );
}
