// Settings → License: the current license, and key entry (submit or resubmit by state).
import { App, Alert, Button, Card, Descriptions, Flex, Form, Input, Tag, Typography } from 'antd';
import { describeError } from '../../../api/ApiError';
import { useCurrentUser } from '../../../api/hooks/useCurrentUser';
import { useLicense } from '../../../api/hooks/useLicense';
import { DelayedLoading } from '../../../components/DelayedLoading';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { ErrorFallback } from '../../../components/ErrorFallback';
import { required } from '../../../lib/formRules';
import { useSubmitLicense } from '../hooks/useSubmitLicense';
import { settingsStrings } from '../strings';
import { evaluationTag, formatLicenseDate, licenseMessage, submitLabel } from './licenseMessages';

const strings = settingsStrings.license;

export function LicensePage() {
  const license = useLicense();
  const { isAdmin } = useCurrentUser();
  const submit = useSubmitLicense();
  const { message, notification } = App.useApp();
  const [form] = Form.useForm<{ key: string }>();

  if (license.isError) {
    return (
      <ErrorFallback
        title={strings.loadFailed}
        error={license.error}
        onRetry={() => void license.refetch()}
      />
    );
  }
  if (license.isPending) return <DelayedLoading label={strings.validating} />;

  const current = license.data;
  const note = licenseMessage(current, isAdmin);
  const denied = isAdmin ? null : strings.noPermission;
  const evaluation = evaluationTag(current);
  const stateTag = evaluation ? (
    <Tag color="warning">{evaluation}</Tag>
  ) : current.state === 'LICENSED' ? (
    <Tag color="success">{strings.tagLicensed}</Tag>
  ) : current.state === 'EXPIRED' ? (
    <Tag color="error">{strings.tagExpired}</Tag>
  ) : (
    <Tag color="warning">{strings.tagUnlicensed}</Tag>
  );

  return (
    <Flex vertical gap={16} style={{ maxWidth: 720 }}>
      <Alert type={note.type} showIcon message={note.text} data-testid="license-message" />
      {current.state !== 'UNLICENSED' && (
        <Card>
          <Descriptions column={1} size="small">
            <Descriptions.Item label={strings.state}>{stateTag}</Descriptions.Item>
            <Descriptions.Item label={strings.company}>
              {current.company_name || strings.unlicensedCompany}
            </Descriptions.Item>
            {current.license_id && (
              <Descriptions.Item label={strings.licenseId}>{current.license_id}</Descriptions.Item>
            )}
            <Descriptions.Item
              label={current.state === 'EXPIRED' ? strings.expired : strings.expires}
            >
              {formatLicenseDate(current.expiration_ts)}
            </Descriptions.Item>
          </Descriptions>
        </Card>
      )}
      <Card>
        <Form<{ key: string }>
          form={form}
          layout="vertical"
          requiredMark={false}
          disabled={Boolean(denied)}
          onFinish={({ key }) =>
            submit.mutate(
              { key: key.trim(), state: current.state },
              {
                onSuccess: () => {
                  message.success(strings.submitted);
                  form.resetFields();
                },
                onError: (error) =>
                  notification.error({
                    message: strings.submitFailed,
                    description: describeError(error),
                  }),
              },
            )
          }
        >
          <Form.Item
            validateFirst
            name="key"
            label={strings.keyLabel}
            rules={[required(strings.keyLabel)]}
            extra={current.state !== 'UNLICENSED' && !denied ? strings.replaceHint : undefined}
          >
            <Input.TextArea
              rows={4}
              placeholder={strings.keyPlaceholder}
              style={{ fontFamily: 'monospace' }}
              autoComplete="off"
              spellCheck={false}
            />
          </Form.Item>
          <DisabledTooltip reason={denied}>
            <Button type="primary" htmlType="submit" loading={submit.isPending}>
              {submitLabel(current.state)}
            </Button>
          </DisabledTooltip>
        </Form>
      </Card>
      {isAdmin && (current.state === 'UNLICENSED' || evaluation) && (
        <Card title={strings.howTitle} size="small" data-testid="license-how">
          {current.state === 'UNLICENSED' && (
            <>
              <Typography.Paragraph>{strings.howEvaluate}</Typography.Paragraph>
              <Typography.Paragraph>
                <Typography.Text code copyable>
                  npm run license -- evaluate
                </Typography.Text>
              </Typography.Paragraph>
              <Typography.Paragraph type="secondary">
                {strings.howEvaluateStart}
              </Typography.Paragraph>
            </>
          )}
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {strings.howProduction}
          </Typography.Paragraph>
        </Card>
      )}
    </Flex>
  );
}
