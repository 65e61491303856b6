// The page-level fallback: what failed, the error report file and a way home (docs/product.md, Shell §8).
import { DownloadOutlined, HomeOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Space } from 'antd';
import type { ReactNode } from 'react';
import { describeError } from '../api/ApiError';
import { downloadErrorReport } from '../lib/errorReport';
import { commonStrings } from './strings';

export interface ErrorFallbackProps {
  title: ReactNode;
  error: unknown;
  onRetry?: () => void;
  /** Where 'Go to home' leads; a full page load so a broken state is left behind. */
  homeHref?: string;
  status?: 'error' | 'warning' | '500' | '404';
  extra?: ReactNode;
}

export function ErrorFallback({
  title,
  error,
  onRetry,
  homeHref = '/',
  status = 'error',
  extra,
}: ErrorFallbackProps) {
  const detail =
    error === undefined || error === null ? commonStrings.unparsable : describeError(error);
  return (
    <Result
      status={status}
      title={title}
      subTitle={detail}
      extra={
        <Space wrap style={{ justifyContent: 'center' }}>
          {onRetry && (
            <Button icon={<ReloadOutlined />} onClick={onRetry}>
              {commonStrings.retry}
            </Button>
          )}
          <Button icon={<DownloadOutlined />} onClick={() => downloadErrorReport(error)}>
            {commonStrings.downloadErrorReport}
          </Button>
          {extra}
          <Button type="primary" icon={<HomeOutlined />} href={homeHref}>
            {commonStrings.goToHome}
          </Button>
        </Space>
      }
    />
  );
}
