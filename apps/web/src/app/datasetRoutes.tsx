// The dataset, concept and model routes of docs/product.md, Shell §2: the pages of several
// features (datasets, explore, metadata, dataset features, models, similar items, subsets), with
// placeholder pages titled by the route until the work on datasets and models fills them in.
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { DelayedLoading } from '../components/DelayedLoading';
import { FeaturesPage } from '../features/dataset-features';
import {
  ConceptPage,
  DatasetOverviewPage,
  DatasetsPage,
  DatasetSubPage,
} from '../features/datasets';
import { MetadataPage } from '../features/metadata';
import {
  ModelComparisonRoute,
  ModelFeaturesPage,
  ModelMetadataPage,
  ModelOverviewPage,
  ModelPerformanceRoute,
  ModelsPage,
  ModelSubPage,
} from '../features/models';
import { SimilarItemsPage } from '../features/similar-items';
import { SubsetPage, SubsetsPage } from '../features/subsets';

/** Sub-pages of a dataset, shared by a model (which adds performance and compare). */
export const DATASET_SUB_PAGES: { path: string; title: string }[] = [
  { path: 'overview', title: 'Overview' },
  { path: 'checks', title: 'Health Checks' },
  { path: 'checks/:checkId', title: 'Health Check' },
  { path: 'explore', title: 'Explore' },
  { path: 'metadata', title: 'Metadata' },
  { path: 'features', title: 'Features' },
  { path: 'workflows', title: 'Workflows' },
  { path: 'workflows/:workflowId', title: 'Workflow' },
  { path: 'subsets', title: 'Subsets' },
  { path: 'subsets/:subsetId', title: 'Subset' },
  { path: 'subsets/:subsetId/similar', title: 'Similar Items' },
];

export const MODEL_SUB_PAGES: { path: string; title: string }[] = [
  ...DATASET_SUB_PAGES,
  { path: 'performance', title: 'Performance' },
  { path: 'compare', title: 'Compare' },
  { path: 'compare/:comparePredictionSetId', title: 'Compare' },
];

// The explorer (virtualized grid, drag-and-drop, date pickers) loads when first opened, so the
// rest of the app neither downloads nor parses it up front.
const LazyExplorePage = lazy(() =>
  import('../features/explore').then((module) => ({ default: module.ExplorePage })),
);

// The health-check pages load when first opened too (docs/health-checks.md).
const LazyHealthChecksPage = lazy(() =>
  import('../features/health-checks').then((module) => ({ default: module.HealthChecksPage })),
);
const LazyHealthCheckPage = lazy(() =>
  import('../features/health-checks').then((module) => ({ default: module.HealthCheckPage })),
);

function Lazy({ children }: { children: ReactNode }) {
  return <Suspense fallback={<DelayedLoading />}>{children}</Suspense>;
}

function ExploreRoute() {
  return (
    <Suspense fallback={<DelayedLoading />}>
      <LazyExplorePage />
    </Suspense>
  );
}

export const datasetRoutes: RouteObject[] = [
  // Listed before the placeholders of the same path, which they replace.
  { path: 'datasets/:datasetId/subsets/:subsetId/similar', element: <SimilarItemsPage /> },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/subsets/:subsetId/similar',
    element: <SimilarItemsPage />,
  },
  { path: 'datasets/:datasetId/subsets', element: <SubsetsPage /> },
  { path: 'datasets/:datasetId/subsets/:subsetId', element: <SubsetPage /> },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/subsets',
    element: <SubsetsPage />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/subsets/:subsetId',
    element: <SubsetPage />,
  },
  { path: 'datasets', element: <DatasetsPage /> },
  { path: 'datasets/:datasetId', element: <Navigate to="overview" replace /> },
  { path: 'datasets/:datasetId/overview', element: <DatasetOverviewPage /> },
  { path: 'datasets/:datasetId/explore', element: <ExploreRoute /> },
  { path: 'datasets/:datasetId/metadata', element: <MetadataPage /> },
  { path: 'datasets/:datasetId/features', element: <FeaturesPage /> },
  {
    path: 'datasets/:datasetId/checks',
    element: (
      <Lazy>
        <LazyHealthChecksPage />
      </Lazy>
    ),
  },
  {
    path: 'datasets/:datasetId/checks/:checkId',
    element: (
      <Lazy>
        <LazyHealthCheckPage />
      </Lazy>
    ),
  },
  ...DATASET_SUB_PAGES.filter(
    ({ path }) =>
      !['overview', 'explore', 'metadata', 'features', 'checks', 'checks/:checkId'].includes(path),
  ).map(({ path, title }) => ({
    path: `datasets/:datasetId/${path}`,
    element: <DatasetSubPage title={title} />,
  })),
  { path: 'concepts/new/:datasetId', element: <ConceptPage title="New Concept" /> },
  { path: 'concepts/:conceptId', element: <ConceptPage title="Concept" /> },
  { path: 'models', element: <ModelsPage /> },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId',
    element: <Navigate to="overview" replace />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/explore',
    element: <ExploreRoute />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/overview',
    element: <ModelOverviewPage />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/performance',
    element: <ModelPerformanceRoute />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/compare',
    element: <ModelComparisonRoute />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/compare/:comparePredictionSetId',
    element: <ModelComparisonRoute />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/features',
    element: <ModelFeaturesPage />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/metadata',
    element: <ModelMetadataPage />,
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/checks',
    element: (
      <Lazy>
        <LazyHealthChecksPage />
      </Lazy>
    ),
  },
  {
    path: 'models/datasets/:datasetId/predictions/:predictionSetId/checks/:checkId',
    element: (
      <Lazy>
        <LazyHealthCheckPage />
      </Lazy>
    ),
  },
  ...MODEL_SUB_PAGES.filter(
    ({ path }) => !['explore', 'checks', 'checks/:checkId'].includes(path),
  ).map(({ path, title }) => ({
    path: `models/datasets/:datasetId/predictions/:predictionSetId/${path}`,
    element: <ModelSubPage title={title} />,
  })),
];
