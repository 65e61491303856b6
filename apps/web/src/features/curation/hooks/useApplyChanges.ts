// Runs the requests that apply a pending-changes queue, one after the other (docs/curation.md):
// queued subsets are created, subsets updated, then the sample actions and the object actions
// are sent (`PUT /api/actions`, one transaction each). It stops at the first refusal and reports
// each request that went through, so the queue keeps only what was not applied. Afterwards every
// read of the dataset is stale: items, counts, subsets, embeddings.
import { api, type Subset } from '@loupe/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../api/client';
import { queryKeys } from '../../../api/queryKeys';
import type { CurationStep } from '../pendingChanges';

export interface ApplyOutcome {
  /** Items a request changed (as the server reports them) or put in or out of a subset. */
  changedItemIds: Set<string>;
  deletedItemIds: Set<string>;
}

/** A request of an apply was refused: which one, why, and what went through before it. */
export class ApplyStepError extends Error {
  constructor(
    readonly step: CurationStep,
    override readonly cause: unknown,
    readonly outcome: ApplyOutcome,
  ) {
    super(`Applying ${step.kind} failed`);
  }
}

export interface ApplyInput {
  steps: CurationStep[];
  /** A request went through (`created` is the subset a create_subset made). */
  onStepDone(step: CurationStep, created?: Subset): void;
}

export function useApplyChanges(datasetId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ steps, onStepDone }: ApplyInput): Promise<ApplyOutcome> => {
      const outcome: ApplyOutcome = { changedItemIds: new Set(), deletedItemIds: new Set() };
      for (const step of steps) {
        try {
          if (step.kind === 'create_subset') {
            const created = await call(api.subsets.create, {
              params: { id: datasetId },
              body: step.body,
            });
            step.body.item_ids?.forEach((id) => outcome.changedItemIds.add(id));
            onStepDone(step, created);
          } else if (step.kind === 'update_subset') {
            await call(api.subsets.update, {
              params: { id: datasetId, subsetId: step.subset.id },
              body: step.body,
            });
            for (const id of [...step.body.added_item_ids, ...step.body.removed_item_ids])
              outcome.changedItemIds.add(id);
            onStepDone(step);
          } else {
            const answer = await call(api.curation.applyActions, { body: step.body });
            for (const result of answer.results) {
              for (const id of result.item_ids) {
                outcome.changedItemIds.add(id);
                if (result.type === 'delete_items') outcome.deletedItemIds.add(id);
              }
            }
            onStepDone(step);
          }
        } catch (error) {
          throw new ApplyStepError(step, error, outcome);
        }
      }
      return outcome;
    },
    // Also after a refusal: the requests before it went through.
    onSettled: () => {
      for (const queryKey of [
        queryKeys.datasets.one(datasetId),
        queryKeys.datasets.list(),
        queryKeys.explore.all(datasetId),
        queryKeys.embeddings.all(datasetId),
        queryKeys.subsets.all(datasetId),
      ]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    },
  });
}
