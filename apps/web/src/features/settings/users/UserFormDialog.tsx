// Add or edit a user: name, email (read-only once created) and role.
import type { Role, User } from '@loupe/contracts';
import { Form, Input, Modal, Select, Tooltip } from 'antd';
import { useEffect } from 'react';
import { email, personName, required } from '../../../lib/formRules';
import { settingsStrings } from '../strings';

const strings = settingsStrings.users;

export interface UserFormValues {
  name: string;
  email: string;
  role: Role;
}

export interface UserFormDialogProps {
  open: boolean;
  /** The user being edited; absent when adding. */
  user?: User;
  /** Why the role cannot change (the last remaining administrator). */
  roleLocked?: string | null;
  submitting: boolean;
  /** A server message to show on the email field (creation conflict). */
  emailError?: string | null;
  onSubmit: (values: UserFormValues) => void;
  onClose: () => void;
}

export function UserFormDialog({
  open,
  user,
  roleLocked,
  submitting,
  emailError,
  onSubmit,
  onClose,
}: UserFormDialogProps) {
  const [form] = Form.useForm<UserFormValues>();
  const editing = Boolean(user);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      user
        ? { name: user.name, email: user.email, role: user.role }
        : { name: '', email: '', role: 'member' },
    );
  }, [open, user, form]);

  useEffect(() => {
    if (emailError) form.setFields([{ name: 'email', errors: [emailError] }]);
  }, [emailError, form]);

  return (
    <Modal
      open={open}
      title={editing ? strings.editTitle : strings.addTitle}
      okText={editing ? strings.save : strings.create}
      cancelText={strings.cancel}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={submitting}
      forceRender
    >
      <Form<UserFormValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={(values) =>
          onSubmit({ ...values, name: values.name.trim(), email: values.email.trim() })
        }
      >
        <Form.Item
          validateFirst
          name="name"
          label={strings.name}
          rules={[required('Name'), personName()]}
        >
          <Input placeholder={strings.namePlaceholder} autoFocus maxLength={200} />
        </Form.Item>
        <Form.Item
          validateFirst
          name="email"
          label={strings.email}
          rules={editing ? [] : [required('Email'), email()]}
          extra={editing ? strings.emailReadOnly : undefined}
        >
          <Input placeholder={strings.emailPlaceholder} readOnly={editing} disabled={editing} />
        </Form.Item>
        <Form.Item label={strings.role} htmlFor="user-role">
          <Tooltip title={roleLocked ?? undefined}>
            <span>
              <Form.Item validateFirst name="role" noStyle>
                <Select
                  id="user-role"
                  disabled={Boolean(roleLocked)}
                  style={{ width: '100%' }}
                  options={[
                    { value: 'member', label: strings.roles.member },
                    { value: 'admin', label: strings.roles.admin },
                  ]}
                />
              </Form.Item>
            </span>
          </Tooltip>
        </Form.Item>
      </Form>
    </Modal>
  );
}
