// The IoU threshold rule (docs/product.md, Datasets §5, §9): a number from 0 to 1 in steps of 0.1; Apply
// only when it changed and is in range.
import { TASK_TRAITS, type TaskType } from '@loupe/contracts';

export const IOU_MIN = 0;
export const IOU_MAX = 1;
export const IOU_STEP = 0.1;

export function hasIouThreshold(task: TaskType): boolean {
  return TASK_TRAITS[task].hasObjects;
}

export function isIouInRange(value: number | null | undefined): value is number {
  return (
    typeof value === 'number' && Number.isFinite(value) && value >= IOU_MIN && value <= IOU_MAX
  );
}

export function canApplyIou(value: number | null | undefined, current: number | undefined) {
  return isIouInRange(value) && current !== undefined && Math.abs(value - current) > 1e-9;
}
