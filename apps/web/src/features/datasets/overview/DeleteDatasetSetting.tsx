// Settings → Delete dataset: the user types the exact name; then back to the list with a toast
// (docs/product.md, Datasets §5, §8).
import { DeleteOutlined } from '@ant-design/icons';
import type { Dataset } from '@loupe/contracts';
import { App, Button, Flex, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useDeleteDataset } from '../hooks/useDeleteDataset';
import { datasetStrings as strings } from '../strings';
import { SettingRow } from './SettingRow';

/** Delete is allowed only when the typed text is exactly the dataset's name. */
export function confirmsDeletion(typed: string, name: string): boolean {
  return typed === name;
}

export function DeleteDatasetSetting({ dataset }: { dataset: Pick<Dataset, 'id' | 'name'> }) {
  const { message } = App.useApp();
  const navigate = useNavigate();
  const remove = useDeleteDataset();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState('');

  const close = () => {
    setOpen(false);
    setTyped('');
  };

  const confirm = () => {
    if (!confirmsDeletion(typed, dataset.name)) return;
    remove.mutate(dataset.id, {
      onSuccess: () => {
        close();
        void message.success(strings.deleted(dataset.name));
        void navigate('/datasets');
      },
      onError: () => void message.error(strings.deleteFailed(dataset.name)),
    });
  };

  return (
    <SettingRow title={strings.deleteDataset} description={strings.deleteHelp}>
      <Button danger icon={<DeleteOutlined />} onClick={() => setOpen(true)}>
        {strings.deleteDataset}
      </Button>
      <Modal
        open={open}
        title={strings.deleteTitle(dataset.name)}
        onCancel={close}
        destroyOnHidden
        okText={strings.delete}
        cancelText={strings.cancel}
        okButtonProps={{
          danger: true,
          disabled: !confirmsDeletion(typed, dataset.name),
          loading: remove.isPending,
        }}
        onOk={confirm}
      >
        <Flex vertical gap={12}>
          <Typography.Text type="danger" strong>
            {strings.cannotBeUndone}
          </Typography.Text>
          <Typography.Text>{strings.typeName(dataset.name)}</Typography.Text>
          <Input
            aria-label={strings.deleteInputLabel}
            value={typed}
            autoComplete="off"
            onChange={(event) => setTyped(event.target.value)}
            onPressEnter={confirm}
            placeholder={dataset.name}
          />
        </Flex>
      </Modal>
    </SettingRow>
  );
}
