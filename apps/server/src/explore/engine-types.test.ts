// The query engine of @loupe/analysis keeps its own copy of the wire shapes of sort, filter and
// histogram (analysis imports nothing of ours, docs/decisions.md); these checks fail to compile
// when the copy and the contracts drift apart, so the explore service's hand-over stays sound.
import type {
  Filter as EngineFilter,
  HistogramResponse as EngineHistogram,
  SortEntry as EngineSortEntry,
} from '@loupe/analysis';
import type { Filter, HistogramResponse, SortEntry } from '@loupe/contracts';
import { describe, expectTypeOf, it } from 'vitest';

describe('the contracts and the query engine', () => {
  it('agree on sort entries, filters and histograms', () => {
    expectTypeOf<SortEntry>().toEqualTypeOf<EngineSortEntry>();
    expectTypeOf<Filter>().toExtend<EngineFilter>();
    expectTypeOf<EngineHistogram>().toExtend<HistogramResponse>();
  });
});
