// A dataset or model page whose content arrives with its own issue: titled by the route.
import { Empty, Flex, Typography } from 'antd';
import { useParams } from 'react-router';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { Page, type Crumb } from '../../components/Page';
import { useDataset } from './hooks/useDataset';
import { datasetStrings } from './strings';

export function PlaceholderPage({ title, breadcrumbs }: { title: string; breadcrumbs: Crumb[] }) {
  return (
    <Page title={title} breadcrumbs={breadcrumbs}>
      <Empty
        style={{ marginTop: 48 }}
        description={
          <Flex vertical gap={4}>
            <Typography.Text strong>{datasetStrings.comingSoon}</Typography.Text>
            <Typography.Text type="secondary">{datasetStrings.placeholder}</Typography.Text>
          </Flex>
        }
      />
    </Page>
  );
}

/** A dataset's sub-page still to come, under the dataset's crumbs ('Dataset not found' when it is). */
export function DatasetSubPage({ title }: { title: string }) {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const breadcrumbs: Crumb[] = [{ title: datasetStrings.datasets, to: '/datasets' }];
  if (dataset.data) {
    breadcrumbs.push({ title: dataset.data.name, to: `/datasets/${datasetId}/overview` });
  }
  if (isNotFound(dataset.error)) {
    return (
      <Page title={title} breadcrumbs={breadcrumbs}>
        <NotFoundState title={datasetStrings.datasetNotFound} />
      </Page>
    );
  }
  return <PlaceholderPage title={title} breadcrumbs={breadcrumbs} />;
}

export function ConceptPage({ title }: { title: string }) {
  return <PlaceholderPage title={title} breadcrumbs={[{ title: 'Concepts' }]} />;
}
