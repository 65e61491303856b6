// The performance page loads when first opened: its charts (ECharts) stay out of the bundle the
// rest of the app downloads up front.
import { lazy, Suspense } from 'react';
import { DelayedLoading } from '../../../components/DelayedLoading';

const LazyModelPerformancePage = lazy(() =>
  import('./ModelPerformancePage').then((module) => ({ default: module.ModelPerformancePage })),
);

export function ModelPerformanceRoute() {
  return (
    <Suspense fallback={<DelayedLoading />}>
      <LazyModelPerformancePage />
    </Suspense>
  );
}
