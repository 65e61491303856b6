// Configure a check's params (docs/health-checks.md, "Configure"): a Switch for booleans, an
// InputNumber with step 0.001 for floats and step 1 for ints (bounds from the param), a Select for
// categories, the filter builder for a filter param. Apply is disabled until something changed;
// closing with changes asks 'Discard changes' / 'Discard and leave'.
import type { CheckParam, CheckParamValue, DataLevel, HealthCheckOverview } from '@loupe/contracts';
import {
  App,
  Button,
  Flex,
  Form,
  Input,
  InputNumber,
  Modal,
  Select,
  Switch,
  Typography,
} from 'antd';
import { useState } from 'react';
import { ApiError, describeError } from '../../../api/ApiError';
import { changedParams, paramValue } from '../checkRules';
import { conditionsFilter, conditionsOf, type Condition } from '../filterRules';
import { useConfigureCheck } from '../hooks/useCheckMutations';
import { checkStrings as strings } from '../strings';
import { FilterBuilder } from './FilterBuilder';

export interface ConfigureModalProps {
  open: boolean;
  datasetId: string;
  check: HealthCheckOverview;
  predictionsId?: string;
  onClose(): void;
}

export function ConfigureModal(props: ConfigureModalProps) {
  // Mounted afresh each time it opens, so the draft starts from the check's values.
  if (!props.open) return null;
  return <ConfigureDialog {...props} />;
}

function ConfigureDialog({ datasetId, check, predictionsId, onClose }: ConfigureModalProps) {
  const { modal, notification, message } = App.useApp();
  const params = check.config.params;
  const [draft, setDraft] = useState<Record<string, CheckParamValue>>({});
  const [filters, setFilters] = useState<Record<string, Condition[]>>(() =>
    Object.fromEntries(
      Object.entries(params)
        .filter(([, param]) => param.type === 'filter')
        .map(([name, param]) => [
          name,
          conditionsOf(param.type === 'filter' ? param.filter : null),
        ]),
    ),
  );
  const [nameTaken, setNameTaken] = useState(false);
  const configure = useConfigureCheck(datasetId);
  const changed = changedParams(params, draft);
  const incompleteFilter = Object.entries(filters).some(
    ([name, conditions]) =>
      name in draft && conditions.length > 0 && conditionsFilter(conditions) === null,
  );
  const hasChanges = Object.keys(changed).length > 0;

  const set = (name: string, value: CheckParamValue) => setDraft((d) => ({ ...d, [name]: value }));
  const close = () => {
    if (!hasChanges) return onClose();
    void modal.confirm({
      title: strings.discardTitle,
      content: strings.discardText,
      okText: strings.discardAndLeave,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: onClose,
    });
  };
  const apply = () =>
    configure.mutate(
      { checkId: check.id, params: changed },
      {
        onSuccess: () => {
          void message.success(strings.configured(check.name));
          onClose();
        },
        onError: (error) => {
          if (error instanceof ApiError && error.status === 409) setNameTaken(true);
          else
            void notification.error({
              title: strings.configureFailed(check.name),
              description: describeError(error),
            });
        },
      },
    );

  return (
    <Modal
      open
      title={strings.configureTitle(check.name)}
      onCancel={close}
      width={640}
      footer={
        <Flex justify="flex-end" gap={8}>
          <Button onClick={close}>{strings.cancel}</Button>
          <Button
            type="primary"
            disabled={!hasChanges || incompleteFilter}
            loading={configure.isPending}
            onClick={apply}
          >
            {strings.apply}
          </Button>
        </Flex>
      }
    >
      {check.config.description && (
        <Typography.Paragraph type="secondary">{check.config.description}</Typography.Paragraph>
      )}
      <Form layout="vertical" data-testid="configure-form">
        {Object.entries(params).map(([name, param]) => (
          <Form.Item
            key={name}
            label={param.label}
            extra={param.description}
            validateStatus={param.type === 'check_name' && nameTaken ? 'error' : undefined}
            help={param.type === 'check_name' && nameTaken ? strings.nameExists : undefined}
          >
            <ParamEditor
              name={name}
              param={param}
              value={name in draft ? draft[name]! : paramValue(param)}
              onChange={(value) => {
                if (param.type === 'check_name') setNameTaken(false);
                set(name, value);
              }}
              datasetId={datasetId}
              predictionsId={predictionsId}
              conditions={filters[name] ?? []}
              onConditions={(conditions) => {
                setFilters((f) => ({ ...f, [name]: conditions }));
                if (param.type === 'filter') {
                  const current = paramValue(param) as {
                    include_missing: boolean;
                    data_level: DataLevel;
                  };
                  const base = (name in draft ? draft[name] : current) as typeof current;
                  set(name, {
                    filter: conditionsFilter(conditions),
                    include_missing: base.include_missing,
                    data_level: base.data_level,
                  });
                }
              }}
            />
          </Form.Item>
        ))}
      </Form>
    </Modal>
  );
}

interface ParamEditorProps {
  name: string;
  param: CheckParam;
  value: CheckParamValue;
  onChange(value: CheckParamValue): void;
  datasetId: string;
  predictionsId?: string;
  conditions: Condition[];
  onConditions(conditions: Condition[]): void;
}

function ParamEditor(props: ParamEditorProps) {
  const { name, param, value, onChange } = props;
  switch (param.type) {
    case 'boolean':
      return (
        <Switch
          aria-label={param.label}
          checked={value === true}
          onChange={(next) => onChange(next)}
        />
      );
    case 'float':
      return (
        <InputNumber
          aria-label={param.label}
          step={0.001}
          min={param.min}
          max={param.max}
          value={value as number}
          onChange={(next) => next !== null && onChange(next)}
        />
      );
    case 'int':
      return (
        <InputNumber
          aria-label={param.label}
          step={1}
          precision={0}
          min={param.min}
          max={param.max}
          value={value as number}
          onChange={(next) => next !== null && onChange(Math.round(next))}
        />
      );
    case 'numerical_change':
      return (
        <InputNumber
          aria-label={param.label}
          step={0.001}
          suffix={param.mode === 'relative' ? '×' : undefined}
          value={value as number}
          onChange={(next) => next !== null && onChange(next)}
        />
      );
    case 'check_name':
      return (
        <Input
          aria-label={param.label}
          maxLength={200}
          value={value as string}
          onChange={(event) => onChange(event.target.value)}
        />
      );
    case 'categorical': {
      const options = param.categories.map((category) => ({ value: category, label: category }));
      if (param.single) {
        const chosen = value === 'all' ? undefined : (value as string[])[0];
        return (
          <Select
            aria-label={param.label}
            value={chosen}
            options={options}
            onChange={(next: string) => onChange([next])}
          />
        );
      }
      // 'all' is every category; choosing them all says 'all' again.
      const chosen = value === 'all' ? param.categories : (value as string[]);
      return (
        <Select
          mode="multiple"
          aria-label={param.label}
          value={chosen}
          options={options}
          onChange={(next: string[]) =>
            onChange(next.length === param.categories.length ? 'all' : next)
          }
        />
      );
    }
    case 'filter': {
      const current = value as { data_level: DataLevel };
      return (
        <FilterBuilder
          key={name}
          datasetId={props.datasetId}
          dataLevel={current.data_level}
          predictionsId={props.predictionsId}
          conditions={props.conditions}
          onChange={props.onConditions}
        />
      );
    }
  }
}
