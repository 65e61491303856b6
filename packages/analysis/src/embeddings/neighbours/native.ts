// The usearch native library (HNSW indexes, SIMD brute force), loaded on first use so that
// importing @loupe/analysis never loads it.
import { createRequire } from 'node:module';
import type * as USearch from 'usearch';

let usearchModule: typeof USearch | undefined;

export function usearch(): typeof USearch {
  usearchModule ??= createRequire(import.meta.url)('usearch') as typeof USearch;
  return usearchModule;
}
