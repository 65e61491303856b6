// Chooses the split an action moves samples to: the dataset's splits, the ones the queue will
// create, or a new one named here ('A Split with that name already exists').
import { Flex, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { queuedNewSplits, splitNameProblem } from '../nameRules';
import { curationStrings as strings } from '../strings';
import { usePendingChanges } from '../usePendingChanges';
import { NewNameField } from './NewNameField';

export interface SplitChoice {
  split: string;
  isNew: boolean;
}

export interface SplitChooserProps {
  /** The dataset's splits. */
  splits: readonly string[];
  value: SplitChoice | null;
  onChange(value: SplitChoice): void;
}

export function SplitChooser({ splits, value, onChange }: SplitChooserProps) {
  const { changes } = usePendingChanges();
  const [created, setCreated] = useState<string[]>([]);
  const newOnes = [...new Set([...queuedNewSplits(changes), ...created])].filter(
    (split) => !splits.includes(split),
  );

  const isQueued = (name: string) => newOnes.includes(name);

  return (
    <Flex vertical gap={8} data-testid="split-chooser">
      <Select
        aria-label={strings.split}
        placeholder={strings.chooseSplit}
        value={value?.split}
        onChange={(split: string) => onChange({ split, isNew: !splits.includes(split) })}
        showSearch={{ optionFilterProp: 'name' }}
        options={[
          ...newOnes.map((split) => ({
            value: split,
            name: split,
            title: split,
            label: (
              <Flex justify="space-between" gap={8}>
                <Typography.Text ellipsis>{split}</Typography.Text>
                <Tag style={{ marginInlineEnd: 0 }}>{strings.newTag}</Tag>
              </Flex>
            ),
          })),
          ...splits.map((split) => ({ value: split, name: split, label: split })),
        ]}
        style={{ width: '100%' }}
      />
      <NewNameField
        label={strings.newSplitName}
        action={strings.createSplit}
        check={(trimmed, typed) => (isQueued(trimmed) ? null : splitNameProblem(typed, splits))}
        onCreate={(trimmed) => {
          if (!isQueued(trimmed)) setCreated((names) => [...names, trimmed]);
          onChange({ split: trimmed, isNew: true });
        }}
      />
    </Flex>
  );
}
