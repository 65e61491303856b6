// The theme's text and line colours for chart axes, legends and labels.
import { theme } from 'antd';
import { useMemo } from 'react';
import type { ChartColors } from './metadataChart';

export function useChartColors(): ChartColors {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      text: token.colorText,
      secondaryText: token.colorTextSecondary,
      line: token.colorBorderSecondary,
      muted: token.colorTextQuaternary,
    }),
    [
      token.colorText,
      token.colorTextSecondary,
      token.colorBorderSecondary,
      token.colorTextQuaternary,
    ],
  );
}
