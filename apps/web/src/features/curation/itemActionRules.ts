// Which actions an item (or a selection) offers (docs/curation.md, "Pending changes"): the split
// is a sample's; only dataset items can be deleted; predicted objects of a model can only be
// added as ground truth; labels change on classification and audio-classification samples and
// on detection and instance-segmentation objects; subset moves and removals need the subset.
import { TASK_TRAITS, type DataLevel, type TaskType } from '@loupe/contracts';
import type { ChangeKind, PendingAction } from './pendingChanges';

/** An item an action can act on: its id, ground truth or prediction, and its sample. */
export interface ActionItem {
  id: string;
  type: 'gt' | 'pred';
  sampleId: string;
}

export interface ActionContext {
  taskType: TaskType;
  dataLevel: DataLevel;
  items: readonly ActionItem[];
  /** The prediction set the page shows (predicted objects can be promoted from it). */
  predictionsId?: string;
  /** The subset the page shows: its items can be moved out of it or removed from it. */
  currentSubsetId?: string;
}

const LABEL_TASKS_AT_SAMPLE: readonly TaskType[] = ['classification', 'audio_classification'];
const LABEL_TASKS_AT_OBJECT: readonly TaskType[] = ['object_detection', 'instance_segmentation'];

/** The actions offered for these items, in menu order; none for no items. */
export function availableActions(context: ActionContext): ChangeKind[] {
  const { taskType, dataLevel, items } = context;
  if (items.length === 0) return [];
  const objectLevel = dataLevel === 'image_object';
  // Object-level items of a task without objects (semantic segmentation's classes) are no
  // dataset items: nothing to curate.
  if (objectLevel && !TASK_TRAITS[taskType].hasObjects) return [];
  const predictions = items.every((item) => item.type === 'pred');
  if (predictions) {
    return objectLevel && context.predictionsId ? ['promote'] : [];
  }
  if (items.some((item) => item.type === 'pred')) return [];

  const kinds: ChangeKind[] = ['add_to_subset'];
  if (context.currentSubsetId) kinds.push('move_to_subset', 'remove_from_subset');
  const labels = objectLevel ? LABEL_TASKS_AT_OBJECT : LABEL_TASKS_AT_SAMPLE;
  if (labels.includes(taskType)) kinds.push('update_label');
  if (!objectLevel) kinds.push('update_split');
  kinds.push('delete');
  return kinds;
}

/**
 * Whether a queued action can be repeated on other items ('Apply last action'): the items must
 * offer its kind, at its data level (and, for a promotion, from its prediction set).
 */
export function canReplay(action: PendingAction, context: ActionContext): boolean {
  if (!availableActions(context).includes(action.kind)) return false;
  if (action.kind === 'promote') return action.predictionsId === context.predictionsId;
  if (action.kind === 'update_split') return true;
  if (action.dataLevel !== context.dataLevel) return false;
  if (action.kind === 'move_to_subset') return action.from.id === context.currentSubsetId;
  if (action.kind === 'remove_from_subset') return action.subset.id === context.currentSubsetId;
  return true;
}
