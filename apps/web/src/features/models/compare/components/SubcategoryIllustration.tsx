// A small drawing of an item-level subcategory: the ground-truth box (solid) when there is an
// object, and each model's box (dashed, in the model's colour) where it predicts one: on the
// object for a true positive, beside it (or alone) for a false positive, none for a false
// negative or an unmatched side.
import type { ObjectSubcategory } from '@loupe/contracts';
import { theme } from 'antd';
import { useModelColors } from '../hooks/useCategoryColors';

type SideState = 'tp' | 'fn' | 'fp' | 'unmatched';

/** 'tp_a_fn_b' → { a: 'tp', b: 'fn' }. */
export function subcategorySides(subcategory: ObjectSubcategory): { a: SideState; b: SideState } {
  const [a, , b] = subcategory.split('_') as [SideState, string, SideState];
  return { a, b };
}

interface Box {
  x: number;
  y: number;
}

const SIZE = { width: 26, height: 20 };
const TRUTH: Box = { x: 16, y: 10 };

/** Where a model draws its box: on the object (jittered per model), or off it for an FP. */
function boxOf(state: SideState, side: 'a' | 'b', hasTruth: boolean): Box | null {
  const jitter = side === 'a' ? -4 : 4;
  if (state === 'tp') return { x: TRUTH.x + jitter, y: TRUTH.y + jitter };
  if (state === 'fp') {
    if (hasTruth) return { x: TRUTH.x + 22 + jitter / 2, y: TRUTH.y + 10 + jitter / 2 };
    return { x: TRUTH.x + 8 * (side === 'a' ? -1 : 1), y: TRUTH.y + 4 * (side === 'a' ? -1 : 1) };
  }
  return null;
}

export function SubcategoryIllustration({ subcategory }: { subcategory: ObjectSubcategory }) {
  const { token } = theme.useToken();
  const colors = useModelColors();
  const { a, b } = subcategorySides(subcategory);
  const hasTruth = [a, b].some((state) => state === 'tp' || state === 'fn');
  const boxes = [
    { side: 'a' as const, box: boxOf(a, 'a', hasTruth), color: colors.model_a },
    { side: 'b' as const, box: boxOf(b, 'b', hasTruth), color: colors.model_b },
  ];
  return (
    <svg
      width={72}
      height={48}
      viewBox="0 0 72 48"
      aria-hidden
      data-testid={`illustration-${subcategory}`}
      style={{
        background: token.colorFillQuaternary,
        borderRadius: token.borderRadiusSM,
        flex: 'none',
      }}
    >
      {hasTruth && (
        <rect
          x={TRUTH.x}
          y={TRUTH.y}
          {...SIZE}
          fill={token.colorSuccessBg}
          stroke={colors.truth}
          strokeWidth={2}
        />
      )}
      {boxes.map(({ side, box, color }) =>
        box ? (
          <rect
            key={side}
            x={box.x}
            y={box.y}
            {...SIZE}
            fill="none"
            stroke={color}
            strokeWidth={2}
            strokeDasharray="4 2"
          />
        ) : null,
      )}
    </svg>
  );
}
