// The comparison page loads when first opened: its charts (ECharts) stay out of the bundle the
// rest of the app downloads up front.
import { lazy, Suspense } from 'react';
import { DelayedLoading } from '../../../components/DelayedLoading';

const LazyModelComparisonPage = lazy(() =>
  import('./ModelComparisonPage').then((module) => ({ default: module.ModelComparisonPage })),
);

export function ModelComparisonRoute() {
  return (
    <Suspense fallback={<DelayedLoading />}>
      <LazyModelComparisonPage />
    </Suspense>
  );
}
