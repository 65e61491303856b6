// The actions an item (in the viewer) or a selection (in the explorer) offers, as buttons or a
// menu. Each queues a pending change; nothing is applied here. Subset, label and split actions
// ask which one first; removing from a subset is confirmed first (docs/curation.md).
import {
  CheckCircleOutlined,
  DeleteOutlined,
  DownOutlined,
  MinusSquareOutlined,
  PlusSquareOutlined,
  SwapOutlined,
  SplitCellsOutlined,
  TagOutlined,
} from '@ant-design/icons';
import type { DataLevel, Dataset, TaskType } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Dropdown, Flex, Modal, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { datasetQuery } from '../../../api/queries/datasets';
import { subsetsQuery } from '../../../api/queries/subsets';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import { availableActions, type ActionItem } from '../itemActionRules';
import type { ChangeKind, PendingChangeInput, SubsetRef } from '../pendingChanges';
import { curationStrings as strings } from '../strings';
import { usePendingChanges } from '../usePendingChanges';
import { LabelChooser } from './LabelChooser';
import { SplitChooser, type SplitChoice } from './SplitChooser';
import { SubsetChooser } from './SubsetChooser';

export type { ActionItem };

export interface ItemActionsProps {
  datasetId: string;
  taskType: TaskType;
  dataLevel: DataLevel;
  /** One item (the viewer) or many (a selection). */
  items: ActionItem[];
  /** The prediction set the page shows: its predicted objects can be added as ground truth. */
  predictionsId?: string;
  /** The subset the page shows: items can be moved out of it or removed from it. */
  currentSubsetId?: string;
  licensed: boolean;
  mode: 'menu' | 'buttons';
  /** The dataset's labels and splits, when the caller has them (else they are read). */
  dataset?: Pick<Dataset, 'class_names' | 'splits'>;
  /** An action was queued (the explorer clears its selection, say). */
  onQueued?(change: PendingChangeInput): void;
}

const LABELS: Record<ChangeKind, string> = {
  add_to_subset: strings.addToSubset,
  move_to_subset: strings.moveToSubset,
  remove_from_subset: strings.removeFromSubset,
  update_label: strings.updateLabel,
  update_split: strings.updateSplit,
  delete: strings.delete,
  promote: strings.promote,
};

const ICONS: Record<ChangeKind, ReactNode> = {
  add_to_subset: <PlusSquareOutlined />,
  move_to_subset: <SwapOutlined />,
  remove_from_subset: <MinusSquareOutlined />,
  update_label: <TagOutlined />,
  update_split: <SplitCellsOutlined />,
  delete: <DeleteOutlined />,
  promote: <CheckCircleOutlined />,
};

type Dialog = 'add_to_subset' | 'move_to_subset' | 'update_label' | 'update_split';
const DIALOGS: readonly ChangeKind[] = [
  'add_to_subset',
  'move_to_subset',
  'update_label',
  'update_split',
];

export function ItemActions(props: ItemActionsProps) {
  const { datasetId, dataLevel, items, licensed, mode, currentSubsetId } = props;
  const { modal } = App.useApp();
  const { add, applying } = usePendingChanges();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [subset, setSubset] = useState<SubsetRef | null>(null);
  const [label, setLabel] = useState<string | null>(null);
  const [split, setSplit] = useState<SplitChoice | null>(null);
  const datasetRead = useQuery({ ...datasetQuery(datasetId), enabled: !props.dataset });
  const dataset = props.dataset ?? datasetRead.data;
  const subsets = useQuery({ ...subsetsQuery(datasetId), enabled: Boolean(currentSubsetId) });

  const kinds = availableActions({ ...props, items });
  if (kinds.length === 0) {
    return (
      <Typography.Text type="secondary" data-testid="no-item-actions">
        {strings.noActions}
      </Typography.Text>
    );
  }

  const current = currentSubsetId
    ? {
        id: currentSubsetId,
        name:
          subsets.data?.find((entry) => entry.id === currentSubsetId)?.name ??
          strings.currentSubset,
      }
    : null;
  const itemIds = items.map((item) => item.id);
  const sampleOf =
    dataLevel === 'image_object'
      ? Object.fromEntries(items.map((item) => [item.id, item.sampleId]))
      : undefined;
  const queue = (change: PendingChangeInput) => {
    add(change);
    props.onQueued?.(change);
  };
  const base = { itemIds, ...(sampleOf ? { sampleOf } : {}) };

  const run = (kind: ChangeKind) => {
    if (DIALOGS.includes(kind)) {
      setSubset(null);
      setLabel(null);
      setSplit(null);
      setDialog(kind as Dialog);
    } else if (kind === 'remove_from_subset' && current) {
      void modal.confirm({
        title: strings.removeTitle(items.length, current.name),
        content: strings.removeText,
        okText: strings.remove,
        cancelText: strings.cancel,
        onOk: () => queue({ ...base, kind, subset: current, dataLevel }),
      });
    } else if (kind === 'delete') {
      queue({ ...base, kind, dataLevel });
    } else if (kind === 'promote' && props.predictionsId) {
      queue({ ...base, kind, predictionsId: props.predictionsId });
    }
  };

  let choice: ReactNode = null;
  let chosen: PendingChangeInput | null = null;
  if (dialog === 'add_to_subset' || dialog === 'move_to_subset') {
    choice = (
      <SubsetChooser
        datasetId={datasetId}
        dataLevel={dataLevel}
        value={subset}
        onChange={setSubset}
        excludeId={dialog === 'move_to_subset' ? currentSubsetId : undefined}
      />
    );
    if (subset && dialog === 'add_to_subset') chosen = { ...base, kind: dialog, subset, dataLevel };
    if (subset && dialog === 'move_to_subset' && current) {
      chosen = { ...base, kind: dialog, from: current, to: subset, dataLevel };
    }
  } else if (dialog === 'update_label') {
    choice = <LabelChooser labels={dataset?.class_names ?? []} value={label} onChange={setLabel} />;
    if (label) chosen = { ...base, kind: dialog, label, dataLevel };
  } else if (dialog === 'update_split') {
    choice = <SplitChooser splits={dataset?.splits ?? []} value={split} onChange={setSplit} />;
    if (split) chosen = { ...base, kind: dialog, ...split };
  }

  const reason = !licensed ? strings.needsLicense : null;
  const disabled = !licensed || applying;
  const controls =
    mode === 'buttons' ? (
      <Flex wrap gap={6} data-testid="item-actions">
        {kinds.map((kind) => (
          <DisabledTooltip key={kind} reason={reason}>
            <Button
              size="small"
              icon={ICONS[kind]}
              danger={kind === 'delete'}
              disabled={disabled}
              onClick={() => run(kind)}
            >
              {LABELS[kind]}
            </Button>
          </DisabledTooltip>
        ))}
      </Flex>
    ) : (
      <DisabledTooltip reason={reason}>
        <Dropdown
          disabled={disabled}
          trigger={['click']}
          menu={{
            items: kinds.map((kind) => ({
              key: kind,
              label: LABELS[kind],
              icon: ICONS[kind],
              danger: kind === 'delete',
            })),
            onClick: ({ key }) => run(key as ChangeKind),
          }}
        >
          <Button disabled={disabled} data-testid="item-actions">
            {strings.actions} <DownOutlined />
          </Button>
        </Dropdown>
      </DisabledTooltip>
    );

  return (
    <>
      {controls}
      <Modal
        open={dialog !== null}
        title={dialog ? LABELS[dialog] : undefined}
        okText={strings.queue}
        cancelText={strings.cancel}
        okButtonProps={{ disabled: chosen === null }}
        onOk={() => {
          if (chosen) queue(chosen);
          setDialog(null);
        }}
        onCancel={() => setDialog(null)}
        destroyOnHidden
        width={420}
      >
        {choice}
      </Modal>
    </>
  );
}
