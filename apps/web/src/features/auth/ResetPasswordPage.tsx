// 'Set a new password' from a reset link; the token comes from the route (docs/product.md, Shell §2).
import { PASSWORD_MIN_LENGTH, messages } from '@loupe/contracts';
import { App, Alert, Button, Card, Checkbox, Form, Input, Result, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { describeError } from '../../api/ApiError';
import { AuthLayout } from '../../components/AuthLayout';
import { matches, minLength, required } from '../../lib/formRules';
import { emitTestEvent } from '../../lib/testEvents';
import { useResetPassword } from './hooks/useResetPassword';
import { authStrings } from './strings';

interface ResetForm {
  newPassword: string;
  confirmPassword: string;
  revokeApiKeys: boolean;
}

export function ResetPasswordPage() {
  const { token = '' } = useParams();
  const { notification } = App.useApp();
  const reset = useResetPassword();
  const [done, setDone] = useState(false);

  useEffect(() => {
    document.title = `${authStrings.resetTitle} · Loupe`;
    emitTestEvent({ type: 'page:rendered', page: 'reset-password' });
  }, []);

  const submit = (values: ResetForm) =>
    reset.mutate(
      { token, newPassword: values.newPassword, revokeApiKeys: values.revokeApiKeys },
      {
        onSuccess: () => {
          notification.success({ message: authStrings.resetSuccessToast });
          setDone(true);
        },
        onError: (error) =>
          notification.error({
            message: authStrings.resetFailed,
            description: describeError(error),
          }),
      },
    );

  return (
    <AuthLayout>
      <Card style={{ width: '100%', maxWidth: 420 }}>
        {done ? (
          <Result
            status="success"
            title={authStrings.resetSuccessView}
            extra={
              <Link to="/login">
                <Button type="primary">{authStrings.goToLogin}</Button>
              </Link>
            }
          />
        ) : (
          <>
            <Typography.Title level={3} style={{ marginTop: 0 }}>
              {authStrings.resetTitle}
            </Typography.Title>
            {token ? (
              <Typography.Paragraph type="secondary">{authStrings.resetIntro}</Typography.Paragraph>
            ) : (
              <Alert
                type="warning"
                showIcon
                message={authStrings.resetNoToken}
                style={{ marginBottom: 16 }}
              />
            )}
            <Form<ResetForm>
              layout="vertical"
              requiredMark={false}
              onFinish={submit}
              disabled={!token}
            >
              <Form.Item
                validateFirst
                name="newPassword"
                label={authStrings.newPassword}
                rules={[
                  required(authStrings.newPassword),
                  minLength(
                    authStrings.newPassword,
                    PASSWORD_MIN_LENGTH,
                    messages.newPasswordTooShort,
                  ),
                ]}
              >
                <Input.Password placeholder="********" autoComplete="new-password" />
              </Form.Item>
              <Form.Item
                validateFirst
                name="confirmPassword"
                label={authStrings.confirmPassword}
                dependencies={['newPassword']}
                rules={[required(authStrings.confirmPassword), matches('newPassword')]}
              >
                <Input.Password placeholder="********" autoComplete="new-password" />
              </Form.Item>
              {/* Whoever needed a reset may have lost more than the password: revoke by default. */}
              <Form.Item
                name="revokeApiKeys"
                valuePropName="checked"
                initialValue={true}
                extra={authStrings.revokeApiKeysHelp}
              >
                <Checkbox>{authStrings.revokeApiKeys}</Checkbox>
              </Form.Item>
              <Button type="primary" htmlType="submit" block loading={reset.isPending}>
                {authStrings.resetButton}
              </Button>
            </Form>
          </>
        )}
      </Card>
    </AuthLayout>
  );
}
