// The modal that chooses which subsets show performance (docs/product.md, Models §2): every
// subset of the dataset with a switch that applies at once (loading while it saves); a valid
// license is needed to flip one.
import type { Subset } from '@loupe/contracts';
import { App, Modal, Switch, Table } from 'antd';
import { useState } from 'react';
import { describeError } from '../../../../api/ApiError';
import { DisabledTooltip } from '../../../../components/DisabledTooltip';
import { useDatasetSubsets } from '../hooks/useDatasetSubsets';
import { useToggleSubsetPerformance } from '../hooks/useToggleSubsetPerformance';
import { performanceStrings as strings } from '../strings';

export const SUBSET_MODAL_PAGE_SIZE = 10;
export const SUBSET_MODAL_WIDTH = 1100;

export interface EnableSubsetsModalProps {
  datasetId: string;
  open: boolean;
  licensed: boolean;
  onClose(): void;
}

export function EnableSubsetsModal({
  datasetId,
  open,
  licensed,
  onClose,
}: EnableSubsetsModalProps) {
  const { message } = App.useApp();
  const subsets = useDatasetSubsets(datasetId);
  const toggle = useToggleSubsetPerformance(datasetId);
  const [saving, setSaving] = useState<ReadonlySet<string>>(new Set());
  const [pageSize, setPageSize] = useState(SUBSET_MODAL_PAGE_SIZE);
  const lock = licensed ? null : strings.needsLicense;

  const flip = (subset: Subset, enabled: boolean) => {
    setSaving((current) => new Set(current).add(subset.id));
    toggle
      .mutateAsync({
        subsetId: subset.id,
        change: { request_type: enabled ? 'enable' : 'disable' },
      })
      .catch(
        (error: unknown) => void message.error(`${strings.toggleFailed} ${describeError(error)}`),
      )
      .finally(() =>
        setSaving((current) => {
          const next = new Set(current);
          next.delete(subset.id);
          return next;
        }),
      );
  };

  return (
    <Modal
      open={open}
      title={strings.enableSubsetsTitle}
      width={SUBSET_MODAL_WIDTH}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <Table<Subset>
        size="small"
        rowKey="id"
        loading={subsets.isPending}
        dataSource={subsets.data ?? []}
        locale={{ emptyText: strings.noSubsets }}
        data-testid="enable-subsets-table"
        pagination={{
          pageSize,
          showSizeChanger: true,
          onShowSizeChange: (_, size) => setPageSize(size),
        }}
        columns={[
          {
            key: 'name',
            title: strings.subsetColumns.name,
            dataIndex: 'name',
            sorter: (a, b) => a.name.localeCompare(b.name),
          },
          {
            key: 'level',
            title: strings.subsetColumns.level,
            dataIndex: 'data_level',
            render: (level: Subset['data_level']) => strings.levels[level],
          },
          {
            key: 'items',
            title: strings.subsetColumns.items,
            dataIndex: 'num_items',
            align: 'right',
          },
          {
            key: 'enabled',
            title: strings.subsetColumns.enabled,
            align: 'center',
            width: 120,
            render: (_, subset) => (
              <DisabledTooltip reason={lock}>
                <Switch
                  aria-label={strings.toggleSubset(subset.name)}
                  checked={subset.enabled_for_performance}
                  loading={saving.has(subset.id)}
                  disabled={lock !== null}
                  onChange={(enabled) => flip(subset, enabled)}
                />
              </DisabledTooltip>
            ),
          },
        ]}
      />
    </Modal>
  );
}
