// What other features may use of the curation feature (docs/curation.md): the pending-changes
// queue of a dataset page, its box, the item actions that fill it, and the leave confirmation.
export {
  describeChange,
  toRequests,
  type CurationRequests,
  type CurationStep,
  type PendingAction,
  type PendingChange,
  type PendingChangeInput,
  type SubsetRef,
} from './pendingChanges';
export { availableActions, type ActionContext, type ActionItem } from './itemActionRules';
export {
  PendingChangesProvider,
  usePendingChanges,
  type ApplyResult,
  type PendingChangesApi,
} from './usePendingChanges';
export { PendingChangesBox, type PendingChangesBoxProps } from './components/PendingChangesBox';
export { ItemActions, type ItemActionsProps } from './components/ItemActions';
export { useConfirmLeave, type ConfirmLeave } from './hooks/useConfirmLeave';
export { confirmDiscard, type DiscardQuestion } from './confirmDiscard';
export { useGuardLeave, type GuardLeaveOptions } from './hooks/useGuardLeave';
