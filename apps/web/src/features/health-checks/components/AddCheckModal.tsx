// 'Add health check': a custom check from a name (required, unique) and a filter (required) at one
// of the dataset's data levels. Create is disabled with a tooltip naming what is missing; a taken
// name (409) shows 'Name already exists.' on the field.
import { DATA_LEVELS, type Dataset, type DataLevel } from '@loupe/contracts';
import { App, Button, Flex, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { ApiError, describeError } from '../../../api/ApiError';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { conditionsFilter, type Condition } from '../filterRules';
import { useCreateCheck } from '../hooks/useCheckMutations';
import { checkStrings as strings } from '../strings';
import { FilterBuilder } from './FilterBuilder';

export interface AddCheckModalProps {
  open: boolean;
  dataset: Dataset;
  onClose(): void;
  onCreated(checkId: string): void;
}

export function AddCheckModal({ open, dataset, onClose, onCreated }: AddCheckModalProps) {
  const { notification, message } = App.useApp();
  const levels = DATA_LEVELS[dataset.task_type];
  const [name, setName] = useState('');
  const [dataLevel, setDataLevel] = useState<DataLevel>(levels[0] ?? 'image');
  const [conditions, setConditions] = useState<Condition[]>([]);
  const [nameTaken, setNameTaken] = useState(false);
  const create = useCreateCheck(dataset.id);

  const filter = conditionsFilter(conditions);
  const missing = [
    ...(name.trim() === '' ? [strings.nameRequired] : []),
    ...(filter === null ? [strings.filterRequired] : []),
  ];
  const reset = () => {
    setName('');
    setConditions([]);
    setNameTaken(false);
    create.reset();
  };
  const close = () => {
    reset();
    onClose();
  };
  const submit = () => {
    if (filter === null || name.trim() === '') return;
    create.mutate(
      {
        check_key: 'data_check_from_filter',
        config: {
          check_name: name.trim(),
          filter: { filter, include_missing: false, data_level: dataLevel },
        },
      },
      {
        onSuccess: ({ check_id }) => {
          void message.success(strings.created(name.trim()));
          reset();
          onCreated(check_id);
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setNameTaken(true);
          else
            void notification.error({
              title: strings.addFailed(name.trim()),
              description: describeError(error),
            });
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={strings.addTitle}
      onCancel={close}
      width={640}
      destroyOnHidden
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={close}>{strings.cancel}</Button>
          <DisabledTooltip reason={missing.length > 0 ? missing.join(' ') : null}>
            <Button
              type="primary"
              disabled={missing.length > 0}
              loading={create.isPending}
              onClick={submit}
            >
              {strings.create}
            </Button>
          </DisabledTooltip>
        </Flex>
      }
    >
      <Form layout="vertical" onFinish={submit} data-testid="add-check-form">
        <Form.Item
          label={strings.name}
          required
          validateStatus={nameTaken ? 'error' : undefined}
          help={nameTaken ? strings.nameExists : undefined}
        >
          <Input
            autoFocus
            value={name}
            maxLength={200}
            onChange={(event) => {
              setName(event.target.value);
              setNameTaken(false);
            }}
          />
        </Form.Item>
        {levels.length > 1 && (
          <Form.Item label={strings.dataLevel}>
            <Select
              aria-label={strings.dataLevel}
              value={dataLevel}
              options={levels.map((level) => ({ value: level, label: level }))}
              onChange={(level: DataLevel) => {
                setDataLevel(level);
                setConditions([]);
              }}
            />
          </Form.Item>
        )}
        <Form.Item label={strings.filter} required>
          <FilterBuilder
            datasetId={dataset.id}
            dataLevel={dataLevel}
            conditions={conditions}
            onChange={setConditions}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
