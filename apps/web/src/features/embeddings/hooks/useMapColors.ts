// The map's colours from the theme and the points' legend: the palette (legend colours, or the
// primary colour without colouring), an opaque grey for missing values, and the scatter's
// background, selection, hover and lasso colours.
import type { EmbeddingsLegend } from '@loupe/contracts';
import { theme } from 'antd';
import { useMemo } from 'react';
import type { ScatterColors } from '../scatter/createScatter';
import { opaqueOver } from '../colors';
import { buildColorScheme } from '../legend';

export function useMapColors(legend: EmbeddingsLegend | null) {
  const { token } = theme.useToken();
  // Points overlap: a translucent grey would darken where they pile up, so flatten it first.
  const missingColor = useMemo(() => {
    const [r, g, b] = opaqueOver(token.colorTextQuaternary, token.colorBgContainer);
    return `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
  }, [token.colorTextQuaternary, token.colorBgContainer]);
  const scheme = useMemo(
    () => buildColorScheme(legend, { neutral: token.colorPrimary, missing: missingColor }),
    [legend, token.colorPrimary, missingColor],
  );
  const colors = useMemo<ScatterColors>(
    () => ({
      background: token.colorBgContainer,
      palette: scheme.palette,
      active: token.colorWarning,
      hover: token.colorText,
      lasso: token.colorPrimary,
    }),
    [scheme, token.colorBgContainer, token.colorWarning, token.colorText, token.colorPrimary],
  );
  return { missingColor, scheme, colors };
}
