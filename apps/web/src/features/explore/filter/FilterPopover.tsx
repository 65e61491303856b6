// The filter popover (docs/product.md, Datasets §4, §5): a draft of child filters edited row by row; Apply
// (disabled until something changed and every row is valid) applies and closes; Clear (disabled
// with no filter) removes the filter. The badge counts child filters. Rendering failures stay
// inside the popover.
import { CloseOutlined, FilterOutlined } from '@ant-design/icons';
import type { DataLevel, Filter, HistoryRecord, MetadataFieldInfo } from '@loupe/contracts';
import { Badge, Button, Divider, Flex, Popover, Result, Typography } from 'antd';
import { useState } from 'react';
import {
  childFor,
  childKey,
  countFilters,
  filterChildren,
  filtersEqual,
  withChild,
  withoutChild,
  type ChildFilter,
} from '../filterRules';
import { SectionErrorBoundary } from '../SectionErrorBoundary';
import { exploreStrings as strings } from '../strings';
import { PropertySelect } from '../toolbar/PropertySelect';
import {
  BooleanRow,
  HistoryRow,
  NumericRow,
  StringRow,
  TimestampRow,
  boundsOf,
} from './FilterRows';

function newChild(field: MetadataFieldInfo): { child: ChildFilter; valid: boolean } {
  switch (field.type) {
    case 'boolean':
      return {
        child: { type: 'boolean', metadata_id: field.id, op: 'bool_equals', value: true },
        valid: true,
      };
    case 'numeric':
      return {
        child: { type: 'numeric', metadata_id: field.id, op: 'between', value: boundsOf(field) },
        valid: true,
      };
    case 'string':
      return {
        child: { type: 'string', metadata_id: field.id, op: 'in', value: [] },
        valid: false,
      };
    case 'timestamp':
      return {
        child: {
          type: 'timestamp',
          metadata_id: field.id,
          op: 'ts_between',
          value: [field.options?.min ?? null, field.options?.max ?? null],
        },
        valid: true,
      };
  }
}

interface EditorProps {
  applied: Filter | null;
  fields: MetadataFieldInfo[];
  history: HistoryRecord[];
  dataLevel: DataLevel;
  taskType: string;
  onApply(filter: Filter | null): void;
}

function FilterEditor({ applied, fields, history, dataLevel, taskType, onApply }: EditorProps) {
  const [draft, setDraft] = useState<Filter | null>(applied);
  const [invalid, setInvalid] = useState<ReadonlySet<string>>(new Set());
  const children = filterChildren(draft);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const used = new Set(children.map(childKey));

  const setValidity = (key: string, valid: boolean) =>
    setInvalid((current) => {
      const next = new Set(current);
      if (valid) next.delete(key);
      else next.add(key);
      return next;
    });
  const change = (child: ChildFilter, valid: boolean) => {
    setDraft((current) => withChild(current, child));
    setValidity(childKey(child), valid);
  };
  const remove = (key: string) => {
    setDraft((current) => withoutChild(current, key));
    setValidity(key, true);
  };
  const historyChild = childFor(draft, 'history');

  return (
    <Flex vertical gap={12} style={{ width: 440 }} data-testid="filter-popover">
      <PropertySelect
        fields={fields}
        placeholder={strings.searchProperties}
        ariaLabel={strings.searchProperties}
        disabledReason={(field) => (used.has(field.id) ? '' : null)}
        onSelect={(id) => {
          const field = byId.get(id);
          if (!field) return;
          const { child, valid } = newChild(field);
          change(child, valid);
        }}
        style={{ width: '100%' }}
      />
      {children
        .filter((child) => child.type !== 'history')
        .map((child) => {
          const key = childKey(child);
          const field = byId.get(key);
          return (
            <Flex key={key} vertical gap={4} data-testid="filter-row">
              <Flex justify="space-between" align="center">
                <Typography.Text strong>{field?.label ?? key}</Typography.Text>
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  aria-label={`${strings.removeFilter} ${field?.label ?? key}`}
                  onClick={() => remove(key)}
                />
              </Flex>
              {field && child.type === 'boolean' && (
                <BooleanRow field={field} child={child} onChange={change} />
              )}
              {field && child.type === 'numeric' && (
                <NumericRow field={field} child={child} onChange={change} />
              )}
              {field && child.type === 'string' && (
                <StringRow field={field} child={child} onChange={change} />
              )}
              {field && child.type === 'timestamp' && (
                <TimestampRow field={field} child={child} onChange={change} />
              )}
            </Flex>
          );
        })}
      <Divider style={{ margin: 0 }} />
      <Flex vertical gap={4}>
        <Flex justify="space-between" align="center">
          <Typography.Text strong>{strings.history}</Typography.Text>
          {historyChild && (
            <Button
              type="text"
              size="small"
              icon={<CloseOutlined />}
              aria-label={`${strings.removeFilter} ${strings.history}`}
              onClick={() => remove('history')}
            />
          )}
        </Flex>
        <HistoryRow
          records={history}
          recordId={historyChild?.type === 'history' ? historyChild.record_id : null}
          dataLevel={dataLevel}
          taskType={taskType}
          onChange={(recordId) => change({ type: 'history', record_id: recordId }, true)}
        />
      </Flex>
      <Flex justify="flex-end" gap={8}>
        <Button
          disabled={countFilters(applied) === 0 && children.length === 0}
          onClick={() => onApply(null)}
        >
          {strings.clear}
        </Button>
        <Button
          type="primary"
          disabled={filtersEqual(draft, applied) || invalid.size > 0}
          onClick={() => onApply(children.length ? draft : null)}
        >
          {strings.apply}
        </Button>
      </Flex>
    </Flex>
  );
}

export interface FilterPopoverProps extends Omit<EditorProps, 'onApply'> {
  /** While the metadata info loads there is nothing to filter by. */
  disabled?: boolean;
  onChange(filter: Filter | null): void;
}

export function FilterPopover({ onChange, disabled = false, ...editor }: FilterPopoverProps) {
  const [open, setOpen] = useState(false);
  let count = 0;
  try {
    count = countFilters(editor.applied);
  } catch {
    // An unsupported filter from a link: the popover's boundary shows the error.
  }
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      placement="bottomLeft"
      destroyOnHidden
      title={strings.filter}
      content={
        <SectionErrorBoundary
          fallback={() => (
            <Result status="error" subTitle={strings.filterError} style={{ width: 400 }} />
          )}
        >
          <FilterEditor
            {...editor}
            onApply={(filter) => {
              onChange(filter);
              setOpen(false);
            }}
          />
        </SectionErrorBoundary>
      }
    >
      <Badge count={count} size="small">
        <Button
          icon={<FilterOutlined />}
          disabled={disabled}
          type={count > 0 ? 'primary' : 'default'}
          ghost={count > 0}
        >
          {strings.filter}
        </Button>
      </Badge>
    </Popover>
  );
}
