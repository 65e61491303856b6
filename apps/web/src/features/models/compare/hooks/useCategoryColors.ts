// The colour of each comparison category in the active theme: model A and model B in the two
// model colours, both problematic in the error colour, both neutral in the success colour.
import type { ComparisonCategory } from '@loupe/contracts';
import { theme } from 'antd';
import { useMemo } from 'react';

export function useCategoryColors(): Record<ComparisonCategory, string> {
  const { token } = theme.useToken();
  return useMemo(
    () => ({
      model_a_is_better: token.blue,
      both_are_problematic: token.colorError,
      both_are_neutral: token.colorSuccess,
      model_b_is_better: token.orange,
    }),
    [token.blue, token.colorError, token.colorSuccess, token.orange],
  );
}

/** The two models' own colours (boxes of the subcategory drawings, score gauges). */
export function useModelColors(): { model_a: string; model_b: string; truth: string } {
  const { token } = theme.useToken();
  return { model_a: token.blue, model_b: token.orange, truth: token.colorSuccess };
}
