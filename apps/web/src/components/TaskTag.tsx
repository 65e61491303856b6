// A dataset's task type as a badge in the theme's primary colour.
import type { TaskType } from '@loupe/contracts';
import { Tag, theme } from 'antd';
import type { CSSProperties } from 'react';
import { TASK_TYPE_LABELS } from '../lib/taskTypes';

export function TaskTag({ task, style }: { task: TaskType; style?: CSSProperties }) {
  const { token } = theme.useToken();
  return (
    <Tag
      style={{
        color: token.colorPrimaryText,
        background: token.colorPrimaryBg,
        borderColor: token.colorPrimaryBorder,
        marginInlineEnd: 0,
        ...style,
      }}
    >
      {TASK_TYPE_LABELS[task]}
    </Tag>
  );
}
