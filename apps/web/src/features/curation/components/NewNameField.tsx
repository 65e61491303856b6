// The "name a new one" row of a chooser (a subset or a split created inside the queue): an input,
// a create button, and why the name cannot be taken.
import { Button, Flex, Input, Typography } from 'antd';
import { useState } from 'react';

export interface NewNameFieldProps {
  label: string;
  action: string;
  /** Why the name (trimmed, and as typed) cannot be taken, or null. */
  check(trimmed: string, typed: string): string | null;
  onCreate(trimmed: string): void;
}

export function NewNameField({ label, action, check, onCreate }: NewNameFieldProps) {
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const create = () => {
    const trimmed = name.trim();
    const issue = check(trimmed, name);
    setProblem(issue);
    if (issue) return;
    onCreate(trimmed);
    setName('');
  };

  return (
    <>
      <Flex gap={8}>
        <Input
          aria-label={label}
          placeholder={label}
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
        <Button onClick={create}>{action}</Button>
      </Flex>
      {problem && (
        <Typography.Text type="danger" role="alert">
          {problem}
        </Typography.Text>
      )}
    </>
  );
}
