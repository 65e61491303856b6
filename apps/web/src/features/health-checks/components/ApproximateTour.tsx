// The one-time tour on an approximate check (docs/health-checks.md): 'Approximate check' with 'I
// understand', remembered per user in local storage.
import { Tour } from 'antd';
import { useState } from 'react';
import { useCurrentUser } from '../../../api/hooks/useCurrentUser';
import { readStorage, writeStorage } from '../../../lib/storage';
import { approximateTourKey } from '../checkRules';
import { checkStrings as strings } from '../strings';

export function ApproximateTour({ target }: { target: () => HTMLElement | null }) {
  const userId = useCurrentUser().user?.id ?? 'anonymous';
  const key = approximateTourKey(userId);
  const [open, setOpen] = useState(() => readStorage(key) !== 'true');
  const done = () => {
    writeStorage(key, 'true');
    setOpen(false);
  };
  return (
    <Tour
      open={open}
      onClose={done}
      onFinish={done}
      steps={[
        {
          title: strings.approximateTitle,
          description: strings.approximateText,
          target: () => target() ?? document.body,
          nextButtonProps: { children: strings.approximateOk },
        },
      ]}
    />
  );
}
