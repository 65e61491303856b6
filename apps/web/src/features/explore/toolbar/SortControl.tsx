// Sort (docs/product.md, Datasets §4): 'Sort by' applies the quick rules (set ascending, replace keeping
// direction, same property clears); the editor below adds sorts (descending), reorders them by
// drag, changes, removes and clears them. Pending properties cannot be chosen.
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type DragEndEvent,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  CloseOutlined,
  HolderOutlined,
  PlusOutlined,
  SortAscendingOutlined,
  SortDescendingOutlined,
} from '@ant-design/icons';
import type { MetadataFieldInfo, SortEntry } from '@loupe/contracts';
import { Badge, Button, Divider, Flex, Popover, Select, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import {
  addSort,
  canAddSort,
  changeSortDirection,
  changeSortProperty,
  chooseSort,
  moveSort,
  removeSort,
} from '../sortRules';
import { exploreStrings as strings } from '../strings';
import { PropertySelect, insidePopover } from './PropertySelect';

/** Sort tooltip delay (§9): 1 s. */
const SORT_TOOLTIP_DELAY_S = 1;
/** A long property name gives way (ellipsis) rather than widening the toolbar. */
const SORT_LABEL_STYLE: React.CSSProperties = {
  maxWidth: 140,
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
};

interface SortRowProps {
  entry: SortEntry;
  index: number;
  fields: MetadataFieldInfo[];
  used: Set<string>;
  onChange(sort: (current: SortEntry[]) => SortEntry[]): void;
}

function SortRow({ entry, index, fields, used, onChange }: SortRowProps) {
  const { attributes, listeners, setNodeRef, transform, transition, setActivatorNodeRef } =
    useSortable({ id: entry.name });
  return (
    <Flex
      ref={setNodeRef}
      gap={6}
      align="center"
      data-testid="sort-entry"
      style={{ transform: CSS.Transform.toString(transform), transition }}
    >
      <Button
        type="text"
        size="small"
        ref={setActivatorNodeRef}
        icon={<HolderOutlined />}
        aria-label={strings.dragSort}
        style={{ cursor: 'grab' }}
        {...attributes}
        {...listeners}
      />
      <PropertySelect
        fields={fields}
        value={entry.name}
        ariaLabel={strings.sortProperty}
        disabledReason={(field) => (used.has(field.id) && field.id !== entry.name ? '' : null)}
        onSelect={(name) => onChange((current) => changeSortProperty(current, index, name))}
        style={{ width: 200 }}
      />
      <Select
        aria-label={strings.sortDirection}
        value={entry.direction}
        onChange={(direction) =>
          onChange((current) => changeSortDirection(current, index, direction))
        }
        options={[
          { value: 'ascending', label: strings.ascending },
          { value: 'descending', label: strings.descending },
        ]}
        style={{ width: 130 }}
        getPopupContainer={insidePopover}
      />
      <Button
        type="text"
        size="small"
        icon={<CloseOutlined />}
        aria-label={strings.removeSort}
        onClick={() => onChange((current) => removeSort(current, index))}
      />
    </Flex>
  );
}

export interface SortControlProps {
  sort: SortEntry[];
  fields: MetadataFieldInfo[];
  /** While the metadata info loads there is nothing to sort by. */
  disabled?: boolean;
  onChange(sort: SortEntry[]): void;
}

export function SortControl({ sort, fields, disabled = false, onChange }: SortControlProps) {
  const [open, setOpen] = useState(false);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const available = fields.filter((field) => field.state === 'available').map((field) => field.id);
  const used = new Set(sort.map((entry) => entry.name));
  const update = (change: (current: SortEntry[]) => SortEntry[]) => onChange(change(sort));

  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = sort.findIndex((entry) => entry.name === active.id);
    const to = sort.findIndex((entry) => entry.name === over.id);
    onChange(moveSort(sort, from, to));
  };

  const content = (
    <Flex vertical gap={10} style={{ minWidth: 380 }} data-testid="sort-popover">
      <PropertySelect
        fields={fields}
        value={sort.length === 1 ? sort[0]!.name : null}
        placeholder={strings.sortBy}
        ariaLabel={strings.sortBy}
        onSelect={(name) => onChange(chooseSort(sort, name))}
        style={{ width: '100%' }}
      />
      <Divider style={{ margin: 0 }} plain titlePlacement="start">
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {strings.sortEditor}
        </Typography.Text>
      </Divider>
      {sort.length === 0 && <Typography.Text type="secondary">{strings.noSort}</Typography.Text>}
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext
          items={sort.map((entry) => entry.name)}
          strategy={verticalListSortingStrategy}
        >
          {sort.map((entry, index) => (
            <SortRow
              key={entry.name}
              entry={entry}
              index={index}
              fields={fields}
              used={used}
              onChange={update}
            />
          ))}
        </SortableContext>
      </DndContext>
      <Flex justify="space-between">
        {canAddSort(sort, available) ? (
          <Button icon={<PlusOutlined />} onClick={() => onChange(addSort(sort, available))}>
            {strings.addSort}
          </Button>
        ) : (
          <span />
        )}
        <Button disabled={sort.length === 0} onClick={() => onChange([])}>
          {strings.clearSort}
        </Button>
      </Flex>
    </Flex>
  );

  const first = sort[0];
  return (
    <Popover
      trigger="click"
      open={open}
      onOpenChange={setOpen}
      content={content}
      placement="bottomLeft"
      destroyOnHidden
    >
      <Tooltip title={strings.sortTooltip} mouseEnterDelay={SORT_TOOLTIP_DELAY_S}>
        <Badge count={sort.length > 1 ? sort.length : 0} size="small">
          <Button
            icon={
              first?.direction === 'descending' ? (
                <SortDescendingOutlined />
              ) : (
                <SortAscendingOutlined />
              )
            }
            disabled={disabled}
            type={sort.length > 0 ? 'primary' : 'default'}
            ghost={sort.length > 0}
          >
            {first ? (
              <span style={{ display: 'inline-flex', minWidth: 0 }}>
                {strings.sort}:&nbsp;
                <span style={SORT_LABEL_STYLE}>
                  {fields.find((field) => field.id === first.name)?.label ?? first.name}
                </span>
              </span>
            ) : (
              strings.sort
            )}
          </Button>
        </Badge>
      </Tooltip>
    </Popover>
  );
}
