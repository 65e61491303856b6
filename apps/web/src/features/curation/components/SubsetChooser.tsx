// Chooses the subset an action puts items in: the dataset's subsets (those of another data level
// disabled, 'Data-level mismatch.'), the ones the queue will create, or a new one named here
// (not empty, 'NONE', 'MULTIPLE' or an existing subset's name).
import type { DataLevel } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { Flex, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { subsetsQuery } from '../../../api/queries/subsets';
import { queuedNewSubsets, subsetNameProblem } from '../nameRules';
import type { SubsetRef } from '../pendingChanges';
import { curationStrings as strings } from '../strings';
import { usePendingChanges } from '../usePendingChanges';
import { NewNameField } from './NewNameField';

export interface SubsetChooserProps {
  datasetId: string;
  dataLevel: DataLevel;
  value: SubsetRef | null;
  onChange(value: SubsetRef): void;
  /** A subset not offered (the one items are moved out of). */
  excludeId?: string;
}

const keyOf = (ref: SubsetRef) => ('newName' in ref ? `new:${ref.newName}` : `id:${ref.id}`);

export function SubsetChooser(props: SubsetChooserProps) {
  const { datasetId, dataLevel, value, onChange, excludeId } = props;
  const subsets = useQuery(subsetsQuery(datasetId));
  const { changes } = usePendingChanges();
  // New names chosen here that the queue does not hold yet.
  const [created, setCreated] = useState<string[]>([]);

  const existing = (subsets.data ?? []).filter((subset) => subset.id !== excludeId);
  const queued = queuedNewSubsets(changes);
  const newOnes = [
    ...queued,
    ...created
      .filter((newName) => !queued.some((entry) => entry.name === newName))
      .map((newName) => ({ name: newName, dataLevel })),
  ];

  const options = [
    ...newOnes.map((entry) => ({
      value: `new:${entry.name}`,
      label: entry.name,
      disabled: entry.dataLevel !== dataLevel,
      ref: { newName: entry.name } as SubsetRef,
      isNew: true,
    })),
    ...existing.map((subset) => ({
      value: `id:${subset.id}`,
      label: subset.name,
      disabled: subset.data_level !== dataLevel,
      ref: { id: subset.id, name: subset.name } as SubsetRef,
      isNew: false,
    })),
  ];

  const queuedEntry = (name: string) => newOnes.find((entry) => entry.name === name);
  const check = (trimmed: string, typed: string) => {
    const known = queuedEntry(trimmed);
    if (known) return known.dataLevel !== dataLevel ? strings.levelMismatch : null;
    return subsetNameProblem(
      typed,
      (subsets.data ?? []).map((subset) => subset.name),
    );
  };

  return (
    <Flex vertical gap={8} data-testid="subset-chooser">
      <Select
        aria-label={strings.subset}
        placeholder={strings.chooseSubset}
        showSearch={{ optionFilterProp: 'name' }}
        loading={subsets.isPending}
        value={value ? keyOf(value) : undefined}
        onChange={(key: string) => {
          const option = options.find((entry) => entry.value === key);
          if (option) onChange(option.ref);
        }}
        options={options.map(({ ref: _ref, isNew, ...option }) => ({
          ...option,
          name: option.label,
          title: option.disabled ? strings.levelMismatch : option.label,
          label: (
            <Flex justify="space-between" gap={8}>
              <Typography.Text ellipsis disabled={option.disabled}>
                {option.label}
              </Typography.Text>
              {option.disabled ? (
                <Typography.Text type="secondary">{strings.levelMismatch}</Typography.Text>
              ) : (
                isNew && <Tag style={{ marginInlineEnd: 0 }}>{strings.newTag}</Tag>
              )}
            </Flex>
          ),
        }))}
        notFoundContent={subsets.isError ? strings.subsetsFailed : undefined}
        style={{ width: '100%' }}
      />
      <NewNameField
        label={strings.newSubsetName}
        action={strings.createSubset}
        check={check}
        onCreate={(trimmed) => {
          if (!queuedEntry(trimmed)) setCreated((names) => [...names, trimmed]);
          onChange({ newName: trimmed });
        }}
      />
    </Flex>
  );
}
