// A minimal filter editor over a data level's metadata fields: one row per condition (a boolean
// value, a numeric From/To, or string values), all of which must hold. The explorer's own filter
// editor is not offered by its feature, so custom checks and filter params use this one.
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { DataLevel, MetadataFieldInfo } from '@loupe/contracts';
import { Alert, Button, Flex, InputNumber, Select } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { metadataInfoQuery } from '../../../api/queries/explore';
import { conditionFor, filterableFields, type Condition } from '../filterRules';
import { checkStrings as strings } from '../strings';

export interface FilterBuilderProps {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  conditions: Condition[];
  onChange(conditions: Condition[]): void;
}

export function FilterBuilder(props: FilterBuilderProps) {
  const { datasetId, dataLevel, predictionsId, conditions, onChange } = props;
  const info = useQuery(metadataInfoQuery(datasetId, dataLevel, predictionsId));
  const fields = filterableFields(info.data?.metadata_config ?? []);
  const byId = new Map(fields.map((field) => [field.id, field]));
  const replace = (index: number, next: Condition) =>
    onChange(conditions.map((condition, i) => (i === index ? next : condition)));

  if (info.isError) return <Alert type="error" showIcon title={strings.fieldsFailed} />;
  return (
    <Flex vertical gap={8} data-testid="filter-builder">
      {conditions.map((condition, index) => {
        const field = condition.fieldId === null ? undefined : byId.get(condition.fieldId);
        return (
          <Flex key={index} gap={8} align="center" wrap="wrap" data-testid="filter-condition">
            <Select
              showSearch
              optionFilterProp="label"
              aria-label={strings.field}
              placeholder={strings.chooseField}
              style={{ width: 220 }}
              loading={info.isPending}
              value={condition.fieldId ?? undefined}
              options={fields.map((f) => ({ value: f.id, label: f.label || f.name }))}
              onChange={(id: string) => {
                const chosen = byId.get(id);
                if (chosen) replace(index, conditionFor(chosen));
              }}
            />
            {field && condition.fieldId !== null && (
              <ConditionValue
                field={field}
                condition={condition}
                onChange={(next) => replace(index, next)}
              />
            )}
            <Button
              type="text"
              icon={<DeleteOutlined />}
              aria-label={strings.removeCondition}
              onClick={() => onChange(conditions.filter((_, i) => i !== index))}
            />
          </Flex>
        );
      })}
      <div>
        <Button
          icon={<PlusOutlined />}
          onClick={() => onChange([...conditions, { fieldId: null }])}
          disabled={info.isPending}
        >
          {strings.addCondition}
        </Button>
      </div>
    </Flex>
  );
}

function ConditionValue({
  field,
  condition,
  onChange,
}: {
  field: MetadataFieldInfo;
  condition: Exclude<Condition, { fieldId: null }>;
  onChange(next: Condition): void;
}) {
  switch (condition.type) {
    case 'boolean':
      return (
        <Select
          aria-label={strings.values}
          style={{ width: 120 }}
          value={condition.value === null ? undefined : String(condition.value)}
          options={[
            { value: 'true', label: strings.isTrue },
            { value: 'false', label: strings.isFalse },
          ]}
          onChange={(value: string) => onChange({ ...condition, value: value === 'true' })}
        />
      );
    case 'numeric':
      return (
        <Flex gap={8}>
          <InputNumber
            aria-label={strings.from}
            placeholder={strings.from}
            min={field.options?.min}
            max={field.options?.max}
            value={condition.from}
            onChange={(value) => onChange({ ...condition, from: value ?? null })}
          />
          <InputNumber
            aria-label={strings.to}
            placeholder={strings.to}
            min={field.options?.min}
            max={field.options?.max}
            value={condition.to}
            onChange={(value) => onChange({ ...condition, to: value ?? null })}
          />
        </Flex>
      );
    case 'string': {
      const allowed = field.options?.allowed_values;
      return (
        <Select
          mode={allowed ? 'multiple' : 'tags'}
          aria-label={strings.values}
          style={{ minWidth: 220 }}
          value={condition.values}
          options={allowed?.map((value) => ({ value, label: value }))}
          onChange={(values: string[]) => onChange({ ...condition, values })}
        />
      );
    }
  }
}
