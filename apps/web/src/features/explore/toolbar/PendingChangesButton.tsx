// 'Pending changes' in the explorer's toolbar (docs/curation.md): a badge with the number of
// queued changes, opening the queue (PendingChangesBox) in a popover. Shown while changes are
// queued; applying them closes it and tells the page (which clears the selection).
import { UnorderedListOutlined } from '@ant-design/icons';
import { Badge, Button, Popover } from 'antd';
import { useState } from 'react';
import { PendingChangesBox, usePendingChanges, type ApplyResult } from '../../curation';
import { exploreStrings as strings } from '../strings';

export function PendingChangesButton({ onApplied }: { onApplied(result: ApplyResult): void }) {
  const { changes, applying } = usePendingChanges();
  const [open, setOpen] = useState(false);
  if (changes.length === 0 && !applying) return null;
  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={setOpen}
      destroyOnHidden
      styles={{ container: { width: 380, maxHeight: '70vh', overflowY: 'auto' } }}
      content={
        <PendingChangesBox
          onApplied={(result) => {
            if (result.ok) setOpen(false);
            onApplied(result);
          }}
        />
      }
    >
      <Badge count={changes.length} size="small" offset={[-4, 0]}>
        <Button icon={<UnorderedListOutlined />} data-testid="pending-changes">
          {strings.pendingChanges}
        </Button>
      </Badge>
    </Popover>
  );
}
