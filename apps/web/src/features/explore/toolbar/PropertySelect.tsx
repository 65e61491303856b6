// A searchable picker of metadata properties, grouped by their group; a property that cannot be
// used shows why ('Recomputing' while pending, or the caller's reason) and cannot be chosen.
import type { MetadataFieldInfo } from '@loupe/contracts';
import { Flex, Select, Tag, Typography } from 'antd';
import { exploreStrings as strings } from '../strings';

export interface PropertySelectProps {
  fields: MetadataFieldInfo[];
  value?: string | null;
  placeholder?: string;
  ariaLabel: string;
  /** Why a field cannot be chosen here (in addition to being pending). */
  disabledReason?: (field: MetadataFieldInfo) => string | null;
  onSelect(id: string): void;
  onClear?: () => void;
  style?: React.CSSProperties;
  autoFocus?: boolean;
  disabled?: boolean;
}

/**
 * Dropdowns render beside their trigger: a click on an option then counts as inside the
 * popover that holds the select, which would otherwise close.
 */
export const insidePopover = (trigger: HTMLElement) => trigger.parentElement ?? document.body;

export function fieldDisabledReason(
  field: MetadataFieldInfo,
  extra?: (field: MetadataFieldInfo) => string | null,
): string | null {
  if (field.state === 'pending') return strings.recomputing;
  return extra?.(field) ?? null;
}

export function propertyOptions(
  fields: MetadataFieldInfo[],
  disabledReason?: (field: MetadataFieldInfo) => string | null,
) {
  const groups = new Map<string, MetadataFieldInfo[]>();
  for (const field of fields) groups.set(field.group, [...(groups.get(field.group) ?? []), field]);
  return [...groups].map(([group, members]) => ({
    label: group,
    title: group,
    options: members.map((field) => {
      const reason = fieldDisabledReason(field, disabledReason);
      return {
        value: field.id,
        searchText: `${field.label} ${field.name}`,
        disabled: reason !== null,
        title: reason ?? field.label,
        label: (
          <Flex justify="space-between" gap={8} align="center" data-field-id={field.id}>
            <span>{field.label}</span>
            {field.state === 'pending' ? (
              <Tag style={{ marginInlineEnd: 0 }}>{strings.recomputing}</Tag>
            ) : (
              reason && (
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {reason}
                </Typography.Text>
              )
            )}
          </Flex>
        ),
      };
    }),
  }));
}

export function PropertySelect({
  fields,
  value,
  placeholder,
  ariaLabel,
  disabledReason,
  onSelect,
  onClear,
  style,
  autoFocus,
  disabled,
}: PropertySelectProps) {
  return (
    <Select
      showSearch={{
        filterOption: (input, option) =>
          String((option as { searchText?: string } | undefined)?.searchText ?? '')
            .toLowerCase()
            .includes(input.toLowerCase()),
      }}
      aria-label={ariaLabel}
      value={value ?? undefined}
      placeholder={placeholder}
      options={propertyOptions(fields, disabledReason)}
      notFoundContent={strings.noMatchFound}
      onSelect={(id: string) => onSelect(id)}
      allowClear={onClear !== undefined}
      onClear={onClear}
      optionLabelProp="title"
      style={{ minWidth: 220, ...style }}
      popupMatchSelectWidth={false}
      getPopupContainer={insidePopover}
      autoFocus={autoFocus}
      disabled={disabled}
    />
  );
}
