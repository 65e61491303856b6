// 'Create API key': a name (required, at most 64 characters); Enter submits.
import { API_KEY_NAME_MAX_LENGTH, apiKeyMessages } from '@loupe/contracts';
import { Form, Input, Modal, type FormRule } from 'antd';
import { useEffect } from 'react';
import { required } from '../../../lib/formRules';
import { settingsStrings } from '../strings';

const strings = settingsStrings.apiKeys;

interface CreateApiKeyForm {
  name: string;
}

// The server trims the name before it counts, so the form counts the same way.
const notTooLong: FormRule = {
  validator: (_rule, value: unknown) =>
    typeof value === 'string' && value.trim().length > API_KEY_NAME_MAX_LENGTH
      ? Promise.reject(new Error(apiKeyMessages.nameTooLong))
      : Promise.resolve(),
};

export interface CreateApiKeyDialogProps {
  open: boolean;
  submitting: boolean;
  /** The server's refusal of the name (already taken), shown on the field. */
  nameError: string | null;
  onSubmit: (name: string) => void;
  onClose: () => void;
}

export function CreateApiKeyDialog({
  open,
  submitting,
  nameError,
  onSubmit,
  onClose,
}: CreateApiKeyDialogProps) {
  const [form] = Form.useForm<CreateApiKeyForm>();

  useEffect(() => {
    if (open) form.resetFields();
  }, [open, form]);

  useEffect(() => {
    if (nameError) form.setFields([{ name: 'name', errors: [nameError] }]);
  }, [nameError, form]);

  return (
    <Modal
      open={open}
      title={strings.createTitle}
      okText={strings.createOk}
      cancelText={strings.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={submitting}
      forceRender
    >
      <Form<CreateApiKeyForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) => onSubmit(values.name.trim())}
      >
        <Form.Item
          validateFirst
          name="name"
          label={strings.name}
          rules={[required('Name'), notTooLong]}
        >
          <Input
            placeholder={strings.namePlaceholder}
            autoFocus
            autoComplete="off"
            count={{ show: true, max: API_KEY_NAME_MAX_LENGTH }}
            onPressEnter={(event) => {
              // Submit once, here, rather than also through the browser's implicit form submit.
              event.preventDefault();
              form.submit();
            }}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
