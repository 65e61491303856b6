// A dataset or model page whose content arrives with its own issue: titled by the route.
import { Empty } from 'antd';
import { Page, type Crumb } from '../../components/Page';
import { datasetStrings } from './strings';

export function PlaceholderPage({ title, breadcrumbs }: { title: string; breadcrumbs: Crumb[] }) {
  return (
    <Page title={title} breadcrumbs={breadcrumbs}>
      <Empty description={datasetStrings.comingSoon} style={{ marginTop: 48 }}>
        {datasetStrings.placeholder}
      </Empty>
    </Page>
  );
}
