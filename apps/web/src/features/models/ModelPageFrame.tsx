// The frame of every model page: titled by the route, named in the breadcrumbs (Models, the
// dataset, the model), and 'Dataset not found' or 'Model not found' when the URL names neither.
// A page with content renders <ModelPageFrame> and gets the dataset and the model; a page that
// draws its own body uses useModelPageFrame.
import type { Dataset, PredictionSet } from '@loupe/contracts';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { DelayedLoading } from '../../components/DelayedLoading';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page, type Crumb } from '../../components/Page';
import { useDataset } from '../datasets';
import { useModel } from './hooks/useModel';
import { modelCrumbs } from './modelCrumbs';
import { modelStrings } from './strings';

export interface ModelPageContext {
  datasetId: string;
  predictionSetId: string;
  crumbs: Crumb[];
  dataset: Dataset | undefined;
  model: PredictionSet | undefined;
  /** The page to show instead of the content when the dataset or the model failed to load. */
  failure: ReactNode | null;
}

export function useModelPageFrame(
  title: string,
  { loadFailedTitle = modelStrings.loadFailed }: { loadFailedTitle?: string } = {},
): ModelPageContext {
  const { datasetId = '', predictionSetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const model = useModel(datasetId, predictionSetId);
  const crumbs = modelCrumbs(datasetId, predictionSetId, {
    dataset: dataset.data?.name,
    model: model.model?.name,
  });

  // The model is judged once its dataset is known to exist: a missing dataset is named first.
  const modelFailed = dataset.data !== undefined && (model.notFound || Boolean(model.error));
  let failure: ReactNode = null;
  if (dataset.isError || modelFailed) {
    let body: ReactNode;
    if (dataset.isError && isNotFound(dataset.error)) {
      body = <NotFoundState title={modelStrings.datasetNotFound} />;
    } else if (dataset.isError) {
      body = (
        <ErrorFallback
          title={modelStrings.datasetNotFound}
          error={dataset.error}
          onRetry={() => void dataset.refetch()}
        />
      );
    } else if (model.notFound) {
      body = <NotFoundState title={modelStrings.modelNotFound} />;
    } else {
      body = <ErrorFallback title={loadFailedTitle} error={model.error} onRetry={model.refetch} />;
    }
    failure = (
      <Page title={title} breadcrumbs={crumbs}>
        {body}
      </Page>
    );
  }
  return {
    datasetId,
    predictionSetId,
    crumbs,
    dataset: dataset.data,
    model: model.model,
    failure,
  };
}

export interface ModelPageFrameProps {
  title: string;
  /** A name for the page's test event. */
  testId?: string;
  tools?: ReactNode;
  /** The title of the fallback when the model fails to load for a reason other than absence. */
  loadFailedTitle?: string;
  /** The page's content, once the dataset and the model are known. */
  children: (page: { dataset: Dataset; model: PredictionSet }) => ReactNode;
}

export function ModelPageFrame({
  title,
  testId,
  tools,
  loadFailedTitle,
  children,
}: ModelPageFrameProps) {
  const frame = useModelPageFrame(title, { loadFailedTitle });
  if (frame.failure) return frame.failure;
  const { dataset, model } = frame;
  return (
    <Page title={title} breadcrumbs={frame.crumbs} testId={testId} tools={tools}>
      {dataset && model ? children({ dataset, model }) : <DelayedLoading />}
    </Page>
  );
}
