// A model page whose content arrives with its own issue: titled by the route, named in the
// breadcrumbs, and 'Dataset not found' or 'Model not found' when the URL names neither.
import { useParams } from 'react-router';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page } from '../../components/Page';
import { PlaceholderPage, useDataset } from '../datasets';
import { useModel } from './hooks/useModel';
import { modelCrumbs } from './modelCrumbs';
import { modelStrings } from './strings';

export function ModelSubPage({ title }: { title: string }) {
  const { datasetId = '', predictionSetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const model = useModel(datasetId, predictionSetId);
  const crumbs = modelCrumbs(datasetId, predictionSetId, {
    dataset: dataset.data?.name,
    model: model.model?.name,
  });

  // The model is judged once its dataset is known to exist: a missing dataset is named first.
  const modelFailed = dataset.data !== undefined && (model.notFound || Boolean(model.error));
  if (dataset.isError || modelFailed) {
    let body: React.ReactNode;
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
      body = (
        <ErrorFallback
          title={modelStrings.loadFailed}
          error={model.error}
          onRetry={model.refetch}
        />
      );
    }
    return (
      <Page title={title} breadcrumbs={crumbs}>
        {body}
      </Page>
    );
  }
  return <PlaceholderPage title={title} breadcrumbs={crumbs} />;
}
