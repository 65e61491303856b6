// Shows why a control is disabled; antd disabled buttons swallow hover, so wrap them in a span.
import { Tooltip } from 'antd';
import type { ReactNode } from 'react';

export interface DisabledTooltipProps {
  reason: string | null;
  children: ReactNode;
  /** Take the full width (for block buttons). */
  block?: boolean;
}

export function DisabledTooltip({ reason, children, block = false }: DisabledTooltipProps) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip title={reason}>
      <span
        style={{ display: block ? 'block' : 'inline-block', cursor: 'not-allowed' }}
        data-disabled-reason={reason}
      >
        {children}
      </span>
    </Tooltip>
  );
}
