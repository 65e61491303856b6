// One row of the filter editor per child filter kind (docs/product.md, Datasets §3, §5): boolean equals,
// numeric between (validated, bounds rounded outward, step = range / 100), string in, timestamp
// between or equals (dates outside the range disabled), and a history record.
import type { DataLevel, HistoryRecord, MetadataFieldInfo } from '@loupe/contracts';
import { DatePicker, Flex, InputNumber, Radio, Select, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { HISTORY_OPERATION_LABELS } from '../../datasets';
import {
  historyDisabledReason,
  isDateOutside,
  numericFilter,
  numericStep,
  roundBounds,
  timestampFilter,
  validateNumericRange,
  type ChildFilter,
} from '../filterRules';
import { exploreStrings as strings } from '../strings';
import { insidePopover } from '../toolbar/PropertySelect';

export interface RowProps<T extends ChildFilter = ChildFilter> {
  field: MetadataFieldInfo;
  child: T;
  /** `valid` false keeps Apply disabled (the value is not applied). */
  onChange(child: ChildFilter, valid: boolean): void;
}

export function BooleanRow({
  field,
  child,
  onChange,
}: RowProps<Extract<ChildFilter, { type: 'boolean' }>>) {
  return (
    <Radio.Group
      aria-label={field.label}
      value={child.value}
      onChange={(event) => onChange({ ...child, value: event.target.value as boolean }, true)}
      options={[
        { value: true, label: strings.isTrue },
        { value: false, label: strings.isFalse },
      ]}
    />
  );
}

export function boundsOf(field: MetadataFieldInfo): [number, number] {
  return roundBounds(field.options?.min ?? 0, field.options?.max ?? 0);
}

export function NumericRow({
  field,
  child,
  onChange,
}: RowProps<Extract<ChildFilter, { type: 'numeric' }>>) {
  const bounds = boundsOf(field);
  const [from, setFrom] = useState<number | null>(child.value[0]);
  const [to, setTo] = useState<number | null>(child.value[1]);
  const errors = validateNumericRange(from, to, bounds, {
    from: strings.fromError,
    to: strings.toError,
  });
  const step = numericStep(bounds[0], bounds[1]);
  const update = (nextFrom: number | null, nextTo: number | null) => {
    setFrom(nextFrom);
    setTo(nextTo);
    const nextErrors = validateNumericRange(nextFrom, nextTo, bounds, {
      from: strings.fromError,
      to: strings.toError,
    });
    onChange(numericFilter(field.id, nextFrom, nextTo), !nextErrors.from && !nextErrors.to);
  };
  return (
    <Flex vertical gap={2}>
      <Flex gap={8}>
        <InputNumber
          aria-label={`${field.label} ${strings.from}`}
          placeholder={strings.from}
          value={from}
          step={step}
          // Bounds are two-decimal numbers; the step (range / 100) may have more.
          precision={2}
          status={errors.from ? 'error' : undefined}
          onChange={(value) => update(value ?? null, to)}
          style={{ width: 130 }}
        />
        <InputNumber
          aria-label={`${field.label} ${strings.to}`}
          placeholder={strings.to}
          value={to}
          step={step}
          precision={2}
          status={errors.to ? 'error' : undefined}
          onChange={(value) => update(from, value ?? null)}
          style={{ width: 130 }}
        />
      </Flex>
      {(errors.from || errors.to) && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} role="alert">
          {errors.from ?? errors.to}
        </Typography.Text>
      )}
    </Flex>
  );
}

export function StringRow({
  field,
  child,
  onChange,
}: RowProps<Extract<ChildFilter, { type: 'string' }>>) {
  const allowed = field.options?.allowed_values;
  return (
    <Select
      aria-label={field.label}
      mode={allowed ? 'multiple' : 'tags'}
      value={child.value}
      placeholder={strings.chooseValues}
      options={allowed?.map((value) => ({ value, label: value }))}
      notFoundContent={strings.noMatchFound}
      onChange={(value: string[]) => onChange({ ...child, value }, value.length > 0)}
      style={{ width: 268 }}
      maxTagCount="responsive"
      getPopupContainer={insidePopover}
    />
  );
}

export function TimestampRow({
  field,
  child,
  onChange,
}: RowProps<Extract<ChildFilter, { type: 'timestamp' }>>) {
  const [start, end] =
    child.op === 'ts_equals' ? [child.value, child.value] : [child.value[0], child.value[1]];
  const asDay = (value: string | number | null) => (value === null ? null : dayjs(value));
  return (
    <DatePicker.RangePicker
      aria-label={field.label}
      showTime
      allowEmpty={[false, false]}
      placeholder={[strings.startDate, strings.endDate]}
      value={[asDay(start), asDay(end)]}
      disabledDate={(day) =>
        isDateOutside(day.startOf('day').valueOf(), field.options?.min, field.options?.max)
      }
      onChange={(range) => {
        const [from, to] = range ?? [];
        if (!from || !to) return onChange(child, false);
        onChange(timestampFilter(field.id, from.valueOf(), to.valueOf()), true);
      }}
      getPopupContainer={insidePopover}
      style={{ width: 360 }}
    />
  );
}

export function historyLabel(record: HistoryRecord): string {
  const when = new Date(record.timestamp).toLocaleString();
  return `${HISTORY_OPERATION_LABELS[record.operation_type]} · ${record.num_items.toLocaleString()} · ${when} · ${record.user_name}`;
}

export function HistoryRow({
  records,
  recordId,
  dataLevel,
  taskType,
  onChange,
}: {
  records: HistoryRecord[];
  recordId: string | null;
  dataLevel: DataLevel;
  taskType: string;
  onChange(recordId: string): void;
}) {
  const messages = { deleted: strings.historyDeleted, otherLevel: strings.historyOtherLevel };
  return (
    <Select
      aria-label={strings.historyRecord}
      value={recordId ?? undefined}
      placeholder={strings.chooseHistory}
      onChange={onChange}
      notFoundContent={strings.noMatchFound}
      style={{ width: 360 }}
      popupMatchSelectWidth={false}
      optionLabelProp="title"
      getPopupContainer={insidePopover}
      options={records.map((record) => {
        const reason = historyDisabledReason(record, dataLevel, taskType, messages);
        const label = historyLabel(record);
        return {
          value: record.id,
          title: label,
          disabled: reason !== null,
          label: (
            <Flex vertical data-testid="history-option">
              <span>{label}</span>
              {reason && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {reason}
                </Typography.Text>
              )}
            </Flex>
          ),
        };
      })}
    />
  );
}
