import { Button, Flex, Form, Input, Typography } from 'antd';
import { companyName, required } from '../../../lib/formRules';
import { setupStrings } from '../strings';

export interface CompanyStepProps {
  initialValue: string;
  readOnly: boolean;
  onBack: () => void;
  onContinue: (company: string) => void;
}

export function CompanyStep({ initialValue, readOnly, onBack, onContinue }: CompanyStepProps) {
  return (
    <Form<{ company: string }>
      layout="vertical"
      requiredMark={false}
      initialValues={{ company: initialValue }}
      disabled={readOnly}
      onFinish={({ company }) => onContinue(company.trim())}
    >
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {setupStrings.companyTitle}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{setupStrings.companyText}</Typography.Paragraph>
      <Form.Item
        validateFirst
        name="company"
        label={setupStrings.companyLabel}
        rules={[required(setupStrings.companyLabel), companyName()]}
      >
        <Input placeholder={setupStrings.companyPlaceholder} autoFocus maxLength={200} />
      </Form.Item>
      <Flex justify="space-between">
        <Button onClick={onBack} disabled={false}>
          {setupStrings.back}
        </Button>
        {readOnly ? (
          <Button type="primary" onClick={() => onContinue(initialValue)} disabled={false}>
            {setupStrings.continue}
          </Button>
        ) : (
          <Button type="primary" htmlType="submit">
            {setupStrings.continue}
          </Button>
        )}
      </Flex>
    </Form>
  );
}
