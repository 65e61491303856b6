// Sign-in: local email and password, or the external provider's login (docs/product.md, Shell §2).
import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Checkbox, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useLoadedAppState } from '../../api/hooks/useAppState';
import { redirectTarget } from '../../app/guards/redirect';
import { email, required } from '../../lib/formRules';
import { emitTestEvent } from '../../lib/testEvents';
import { AuthLayout } from '../../components/AuthLayout';
import { useLogin } from './hooks/useLogin';
import { LoginSplash } from './LoginSplash';
import { authStrings } from './strings';

interface LoginForm {
  email: string;
  password: string;
  remember: boolean;
}

/** Where the external provider's login starts (a browser GET with redirect_to). */
export const OAUTH_LOGIN_PATH = '/api/oauth/login';

export function LoginPage() {
  const state = useLoadedAppState();
  const location = useLocation();
  const navigate = useNavigate();
  const login = useLogin();
  const [failed, setFailed] = useState(false);
  const target = redirectTarget(location.search);
  const external = state.auth_state.type === 'oauth';

  useEffect(() => {
    document.title = `${authStrings.loginTitle} · Loupe`;
    emitTestEvent({ type: 'page:rendered', page: 'login' });
  }, []);

  const submit = (values: LoginForm) => {
    setFailed(false);
    login.mutate(
      { email: values.email.trim(), password: values.password, remember: values.remember },
      {
        onSuccess: () => void navigate(target, { replace: true }),
        onError: () => setFailed(true),
      },
    );
  };

  return (
    <AuthLayout aside={<LoginSplash />}>
      <Card style={{ width: '100%', maxWidth: 400 }} variant="borderless">
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          {authStrings.loginTitle}
        </Typography.Title>
        {external ? (
          <form method="GET" action={OAUTH_LOGIN_PATH}>
            <input type="hidden" name="redirect_to" value={target} />
            <Button type="primary" htmlType="submit" block size="large">
              {authStrings.loginWith(state.auth_state.oauth_provider_display_name)}
            </Button>
          </form>
        ) : (
          <Form<LoginForm>
            layout="vertical"
            requiredMark={false}
            initialValues={{ email: '', password: '', remember: false }}
            onFinish={submit}
          >
            <Form.Item
              validateFirst
              name="email"
              label={authStrings.emailLabel}
              rules={[required('Email'), email()]}
            >
              <Input
                prefix={<MailOutlined />}
                placeholder={authStrings.emailPlaceholder}
                autoComplete="username"
                autoFocus
                size="large"
              />
            </Form.Item>
            <Form.Item
              validateFirst
              name="password"
              label={authStrings.passwordLabel}
              rules={[required('Password')]}
            >
              <Input.Password
                prefix={<LockOutlined />}
                placeholder={authStrings.passwordPlaceholder}
                autoComplete="current-password"
                size="large"
              />
            </Form.Item>
            <Form.Item validateFirst name="remember" valuePropName="checked">
              <Checkbox>{authStrings.rememberMe}</Checkbox>
            </Form.Item>
            {failed && (
              <Alert
                type="error"
                showIcon
                role="alert"
                message={authStrings.incorrectCredentials}
                style={{ marginBottom: 16 }}
              />
            )}
            {/* A fixed name: antd's loading icon (and its exit motion) would otherwise rename it. */}
            <Button
              type="primary"
              htmlType="submit"
              block
              size="large"
              loading={login.isPending}
              aria-label={authStrings.loginButton}
            >
              {authStrings.loginButton}
            </Button>
          </Form>
        )}
      </Card>
    </AuthLayout>
  );
}
