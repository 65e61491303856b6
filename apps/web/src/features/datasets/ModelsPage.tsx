// The models list. Models arrive with the models issue; until then the empty state and the
// upload instructions.
import { ExperimentOutlined } from '@ant-design/icons';
import { Alert, Empty } from 'antd';
import { Page } from '../../components/Page';
import { datasetStrings } from './strings';

export function ModelsPage() {
  return (
    <Page title={datasetStrings.models} testId="models">
      <Alert
        type="info"
        showIcon
        icon={<ExperimentOutlined />}
        style={{ marginBottom: 24 }}
        message={datasetStrings.modelInstructionsTitle}
        description={datasetStrings.modelInstructions}
      />
      <Empty description={datasetStrings.noModels} style={{ marginTop: 48 }} />
    </Page>
  );
}
