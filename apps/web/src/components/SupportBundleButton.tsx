// Downloads the support bundle and says so when it fails.
import { CustomerServiceOutlined } from '@ant-design/icons';
import { App, Button, type ButtonProps } from 'antd';
import { useState } from 'react';
import { describeError } from '../api/ApiError';
import { downloadSupportBundle } from '../lib/supportBundle';

export const SUPPORT_BUNDLE_FAILED = 'Unable to download the support bundle';

export function SupportBundleButton({
  label,
  type,
}: {
  label: string;
  type?: ButtonProps['type'];
}) {
  const { notification } = App.useApp();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type={type}
      icon={<CustomerServiceOutlined />}
      loading={busy}
      onClick={() => {
        setBusy(true);
        downloadSupportBundle()
          .catch((error: unknown) =>
            notification.error({
              message: SUPPORT_BUNDLE_FAILED,
              description: describeError(error),
            }),
          )
          .finally(() => setBusy(false));
      }}
    >
      {label}
    </Button>
  );
}
