// Change Password: current, new and confirmation, with the rules and toasts of docs/product.md, Shell §5, §8.
import { PASSWORD_MIN_LENGTH, messages } from '@loupe/contracts';
import { App, Checkbox, Form, Input, Modal } from 'antd';
import { describeError } from '../../api/ApiError';
import { matches, minLength, required } from '../../lib/formRules';
import { useChangePassword } from './hooks/useChangePassword';
import { profileStrings } from './strings';

interface ChangePasswordForm {
  oldPassword: string;
  newPassword: string;
  confirmPassword: string;
  revokeApiKeys: boolean;
}

export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<ChangePasswordForm>();
  const { message } = App.useApp();
  const change = useChangePassword();

  const submit = (values: ChangePasswordForm) =>
    change.mutate(
      {
        oldPassword: values.oldPassword,
        newPassword: values.newPassword,
        revokeApiKeys: values.revokeApiKeys,
      },
      {
        onSuccess: () => {
          message.success(profileStrings.passwordChanged);
          form.resetFields();
          onClose();
        },
        onError: (error) =>
          message.error(
            profileStrings.passwordChangeFailed(describeError(error).replace(/\.$/, '')),
          ),
      },
    );

  return (
    <Modal
      open={open}
      title={profileStrings.changePassword}
      okText={profileStrings.save}
      cancelText={profileStrings.cancel}
      onOk={() => form.submit()}
      onCancel={() => {
        form.resetFields();
        onClose();
      }}
      confirmLoading={change.isPending}
      forceRender
    >
      <Form<ChangePasswordForm>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={submit}
      >
        <Form.Item
          validateFirst
          name="oldPassword"
          label={profileStrings.currentPassword}
          rules={[required('Current password', messages.currentPasswordRequired)]}
        >
          <Input.Password autoComplete="current-password" autoFocus />
        </Form.Item>
        <Form.Item
          validateFirst
          name="newPassword"
          label={profileStrings.newPassword}
          rules={[
            required('New password', messages.newPasswordTooShort),
            minLength('New password', PASSWORD_MIN_LENGTH, messages.newPasswordTooShort),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          validateFirst
          name="confirmPassword"
          label={profileStrings.confirmPassword}
          dependencies={['newPassword']}
          rules={[
            required('Confirm password', messages.passwordsDontMatch),
            minLength('Confirm password', PASSWORD_MIN_LENGTH, messages.passwordsDontMatch),
            matches('newPassword'),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="revokeApiKeys"
          valuePropName="checked"
          initialValue={false}
          extra={profileStrings.revokeApiKeysHelp}
        >
          <Checkbox>{profileStrings.revokeApiKeys}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
