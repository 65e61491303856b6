// Which metadata values the cards show (docs/product.md, Datasets §2): similarity score, label and split
// are preselected; any other property can be toggled. A compact icon button opens the list.
import { IdcardOutlined } from '@ant-design/icons';
import type { MetadataFieldInfo } from '@loupe/contracts';
import { Button, Checkbox, Flex, Input, Popover, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { exploreStrings as strings } from '../strings';

export interface CardConfigProps {
  fields: MetadataFieldInfo[];
  toggles: string[];
  onChange(toggles: string[]): void;
}

export function CardConfig({ fields, toggles, onChange }: CardConfigProps) {
  const [search, setSearch] = useState('');
  const shown = fields.filter((field) =>
    `${field.label} ${field.name}`.toLowerCase().includes(search.toLowerCase()),
  );
  const content = (
    <Flex vertical gap={8} style={{ width: 260 }}>
      <Input.Search
        allowClear
        placeholder={strings.searchProperties}
        aria-label={strings.searchProperties}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      <Flex vertical gap={4} style={{ maxHeight: 320, overflowY: 'auto' }}>
        {shown.length === 0 && (
          <Typography.Text type="secondary">{strings.noMatchFound}</Typography.Text>
        )}
        {shown.map((field) => (
          <Checkbox
            key={field.id}
            checked={toggles.includes(field.id)}
            onChange={(event) =>
              onChange(
                event.target.checked
                  ? [...toggles, field.id]
                  : toggles.filter((id) => id !== field.id),
              )
            }
          >
            {field.label}
          </Checkbox>
        ))}
      </Flex>
    </Flex>
  );
  const [open, setOpen] = useState(false);
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      content={content}
      title={strings.cardConfig}
      placement="bottomRight"
    >
      <Tooltip title={open ? undefined : strings.cardConfig}>
        <Button icon={<IdcardOutlined />} aria-label={strings.cardConfig} />
      </Tooltip>
    </Popover>
  );
}
