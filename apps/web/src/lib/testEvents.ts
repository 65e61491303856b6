// Typed test events: the app announces what it finished drawing, so browser journeys wait for
// an event instead of sleeping (docs/web.md).
export type TestEvent =
  | { type: 'app:ready'; signedIn: boolean }
  | { type: 'page:rendered'; page: string }
  | { type: 'theme:applied'; themeId: string }
  | { type: 'datasets:rendered'; count: number }
  | { type: 'dataset-overview:rendered'; datasetId: string; previews: number }
  /** The explore grid drew `cards` loaded cards of a result of `total` items. */
  | { type: 'grid:rendered'; cards: number; total: number }
  /** The subsets table drew `rows` rows of a dataset's `total` subsets. */
  | { type: 'subsets:rendered'; rows: number; total: number }
  /** A subset page drew its grid (`cards` loaded cards) of a subset of `total` items. */
  | { type: 'subset:rendered'; subsetId: string; cards: number; total: number };

declare global {
  interface Window {
    __loupeTestEvents?: TestEvent[];
  }
}

export function emitTestEvent(event: TestEvent): void {
  const log = (window.__loupeTestEvents ??= []);
  log.push(event);
  window.dispatchEvent(new CustomEvent('loupe:test-event', { detail: event }));
}
