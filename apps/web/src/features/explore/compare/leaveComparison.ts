// Leaving a comparison keeps the explorer's query but drops what only exists in it: filters,
// sorts, the colouring and card values on the comparison's per-item fields (comparison.*), which
// the explorer without a comparison does not have.
import type { Filter } from '@loupe/contracts';
import type { ExploreState } from '../exploreState';

const isComparisonField = (id: string) => id.startsWith('comparison.');

/** The filter without its conditions on comparison fields; null when nothing is left. */
export function withoutComparisonFilters(filter: Filter | null): Filter | null {
  if (!filter) return null;
  switch (filter.type) {
    case 'and':
    case 'or': {
      const children = filter.children
        .map(withoutComparisonFilters)
        .filter((child): child is Filter => child !== null);
      return children.length > 0 ? { ...filter, children } : null;
    }
    case 'not': {
      const child = withoutComparisonFilters(filter.child);
      return child ? { ...filter, child } : null;
    }
    case 'history':
      return filter;
    default:
      return isComparisonField(filter.metadata_id) ? null : filter;
  }
}

/** The URL change that leaves the comparison. */
export function leaveComparison(
  state: Pick<ExploreState, 'filter' | 'sort' | 'colorBy' | 'cardToggles'>,
): Partial<ExploreState> {
  return {
    compare: null,
    filter: withoutComparisonFilters(state.filter),
    sort: state.sort.filter((entry) => !isComparisonField(entry.name)),
    colorBy: state.colorBy && isComparisonField(state.colorBy) ? null : state.colorBy,
    cardToggles: state.cardToggles.filter((id) => !isComparisonField(id)),
  };
}
