import type { AuthState } from '@loupe/contracts';
import { Alert, Button, Flex, Form, Input, Tooltip, Typography } from 'antd';
import { PASSWORD_MIN_LENGTH, messages } from '@loupe/contracts';
import { email, matches, minLength, personName, required } from '../../../lib/formRules';
import { setupStrings } from '../strings';

export interface UserValues {
  name: string;
  email: string;
  password: string;
  confirmPassword: string;
}

export interface UserStepProps {
  /** Set when users are managed by an external provider. */
  external?: AuthState;
  initialValues?: UserValues;
  readOnly: boolean;
  submitting: boolean;
  onBack: () => void;
  onContinue: (values: UserValues | undefined) => void;
}

export function UserStep({
  external,
  initialValues,
  readOnly,
  submitting,
  onBack,
  onContinue,
}: UserStepProps) {
  const title = (
    <Typography.Title level={3} style={{ marginTop: 0 }}>
      {setupStrings.userTitle}
    </Typography.Title>
  );
  if (external) {
    const provider = external.oauth_provider_display_name;
    const allowed = external.is_oauth_admin === true;
    return (
      <Flex vertical gap={16}>
        {title}
        <Alert type="info" showIcon message={setupStrings.userExternal(provider)} />
        <Flex justify="space-between">
          <Button onClick={onBack}>{setupStrings.back}</Button>
          <Tooltip title={allowed ? undefined : setupStrings.userExternalNotAdmin(provider)}>
            <Button
              type="primary"
              disabled={!allowed}
              loading={submitting}
              onClick={() => onContinue(undefined)}
            >
              {setupStrings.continue}
            </Button>
          </Tooltip>
        </Flex>
      </Flex>
    );
  }
  return (
    <Form<UserValues>
      layout="vertical"
      requiredMark={false}
      initialValues={initialValues}
      disabled={readOnly}
      onFinish={(values) =>
        onContinue({ ...values, name: values.name.trim(), email: values.email.trim() })
      }
    >
      {title}
      <Typography.Paragraph type="secondary">{setupStrings.userText}</Typography.Paragraph>
      <Form.Item
        validateFirst
        name="name"
        label={setupStrings.nameLabel}
        rules={[required(setupStrings.nameLabel), personName()]}
      >
        <Input
          placeholder={setupStrings.namePlaceholder}
          autoComplete="name"
          autoFocus
          maxLength={200}
        />
      </Form.Item>
      <Form.Item
        validateFirst
        name="email"
        label={setupStrings.emailLabel}
        rules={[required('Email'), email()]}
      >
        <Input placeholder={setupStrings.emailPlaceholder} autoComplete="email" />
      </Form.Item>
      <Form.Item
        validateFirst
        name="password"
        label={setupStrings.passwordLabel}
        rules={[
          required('Password'),
          minLength('Password', PASSWORD_MIN_LENGTH, messages.newPasswordTooShort),
        ]}
      >
        <Input.Password
          placeholder={setupStrings.passwordPlaceholder}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        validateFirst
        name="confirmPassword"
        label={setupStrings.confirmLabel}
        dependencies={['password']}
        rules={[required('Confirm Password'), matches('password')]}
      >
        <Input.Password
          placeholder={setupStrings.passwordPlaceholder}
          autoComplete="new-password"
        />
      </Form.Item>
      <Flex justify="space-between">
        <Button onClick={onBack} disabled={false}>
          {setupStrings.back}
        </Button>
        {readOnly ? (
          <Button type="primary" disabled={false} onClick={() => onContinue(initialValues)}>
            {setupStrings.continue}
          </Button>
        ) : (
          <Button type="primary" htmlType="submit" loading={submitting}>
            {setupStrings.continue}
          </Button>
        )}
      </Flex>
    </Form>
  );
}
