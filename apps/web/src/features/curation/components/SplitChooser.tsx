// Chooses the split an action moves samples to: the dataset's splits, the ones the queue will
// create, or a new one named here ('A Split with that name already exists').
import { Button, Flex, Input, Select, Tag, Typography } from 'antd';
import { useState } from 'react';
import { queuedNewSplits, splitNameProblem } from '../nameRules';
import { curationStrings as strings } from '../strings';
import { usePendingChanges } from '../usePendingChanges';

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
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [created, setCreated] = useState<string[]>([]);
  const newOnes = [...new Set([...queuedNewSplits(changes), ...created])].filter(
    (split) => !splits.includes(split),
  );

  const create = () => {
    const trimmed = name.trim();
    if (newOnes.includes(trimmed)) {
      onChange({ split: trimmed, isNew: true });
      setName('');
      setProblem(null);
      return;
    }
    const issue = splitNameProblem(name, splits);
    setProblem(issue);
    if (issue) return;
    setCreated((names) => [...names, trimmed]);
    onChange({ split: trimmed, isNew: true });
    setName('');
  };

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
      <Flex gap={8}>
        <Input
          aria-label={strings.newSplitName}
          placeholder={strings.newSplitName}
          value={name}
          status={problem ? 'error' : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setProblem(null);
          }}
          onPressEnter={(event) => {
            event.preventDefault();
            create();
          }}
          maxLength={200}
        />
        <Button onClick={create}>{strings.createSplit}</Button>
      </Flex>
      {problem && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
    </Flex>
  );
}
