// The one showing of a new secret (after create or rotate), with copy; the server keeps no way to
// show it again, so the dialog closes only on purpose (Done, Esc or the close button).
import type { CreatedApiKey } from '@loupe/contracts';
import { Alert, Button, Flex, Input, Modal, Typography, theme } from 'antd';
import { CopyButton } from '../../../components/CopyButton';
import { settingsStrings } from '../strings';

const strings = settingsStrings.apiKeys;

export interface NewSecret {
  key: CreatedApiKey;
  rotated: boolean;
}

export function ApiKeySecretDialog({
  value,
  onClose,
}: {
  value: NewSecret | null;
  onClose: () => void;
}) {
  const { token } = theme.useToken();
  return (
    <Modal
      open={value !== null}
      title={value?.rotated ? strings.rotatedTitle : strings.createdTitle}
      onCancel={onClose}
      mask={{ closable: false }}
      width={600}
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
            {value.rotated
              ? strings.rotatedText(value.key.name)
              : strings.createdText(value.key.name)}
          </Typography.Paragraph>
          <Alert type="warning" showIcon title={strings.shownOnce} />
          <Flex gap={8}>
            <Input
              readOnly
              value={value.key.api_key}
              aria-label={strings.secretLabel(value.key.name)}
              data-testid="new-api-key"
              style={{ fontFamily: token.fontFamilyCode }}
              onFocus={(event) => event.target.select()}
            />
            <CopyButton text={value.key.api_key} label={strings.copy} />
          </Flex>
        </Flex>
      )}
    </Modal>
  );
}
