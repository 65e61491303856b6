// Rename and describe a subset (docs/product.md, Datasets §5): the name is required and may not
// be reserved nor another subset's ('Subset with that name already exists.' from the server's
// 409, shown on the field); the description is optional.
import type { Subset } from '@loupe/contracts';
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { ApiError, describeError } from '../../../api/ApiError';
import { useUpdateSubset } from '../hooks/useUpdateSubset';
import { nameProblem } from '../subsetRules';
import { subsetStrings as strings } from '../strings';

interface Values {
  name: string;
  description: string;
}

export function EditSubsetModal({
  datasetId,
  subset,
  onClose,
}: {
  datasetId: string;
  /** The subset being edited; none keeps the dialog closed. */
  subset: Subset | null;
  onClose(): void;
}) {
  const { notification } = App.useApp();
  const [form] = Form.useForm<Values>();
  const update = useUpdateSubset(datasetId);

  useEffect(() => {
    if (subset) form.setFieldsValue({ name: subset.name, description: subset.description ?? '' });
  }, [subset, form]);

  const save = (values: Values) => {
    if (!subset) return;
    const description = values.description.trim();
    update.mutate(
      {
        subsetId: subset.id,
        change: { name: values.name.trim(), description: description || null },
      },
      {
        onSuccess: onClose,
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) {
            form.setFields([{ name: 'name', errors: [strings.nameTaken] }]);
          } else if (error instanceof ApiError && error.status === 400) {
            form.setFields([{ name: 'name', errors: [error.description] }]);
          } else {
            notification.error({ title: strings.updateFailed, description: describeError(error) });
          }
        },
      },
    );
  };

  return (
    <Modal
      open={subset !== null}
      title={subset ? strings.editTitle(subset.name) : undefined}
      okText={strings.save}
      cancelText={strings.cancel}
      onOk={() => form.submit()}
      okButtonProps={{ loading: update.isPending }}
      onCancel={onClose}
      destroyOnHidden
      forceRender
    >
      <Form<Values>
        form={form}
        layout="vertical"
        requiredMark={false}
        onFinish={save}
        initialValues={{ name: subset?.name ?? '', description: subset?.description ?? '' }}
      >
        <Form.Item
          name="name"
          label={strings.name}
          rules={[
            {
              validator: (_rule, value: string | undefined) => {
                const problem = nameProblem(value ?? '');
                return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
              },
            },
          ]}
        >
          <Input autoFocus maxLength={200} autoComplete="off" />
        </Form.Item>
        <Form.Item name="description" label={strings.description}>
          <Input.TextArea maxLength={2000} autoSize={{ minRows: 2, maxRows: 6 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
