// Shows why a control is disabled; antd disabled buttons swallow hover, so wrap them in a span.
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';

export function DisabledTooltip({
  reason,
  children,
}: {
  reason: string | null;
  children: ReactNode;
}) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip title={reason}>
      <span
        style={{ display: 'inline-block', cursor: 'not-allowed' }}
        data-disabled-reason={reason}
      >
        {children}
      </span>
    </Tooltip>
  );
}
