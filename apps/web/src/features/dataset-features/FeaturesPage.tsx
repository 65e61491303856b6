// The features page (docs/product.md, Datasets §2): the dataset's features with their size and how many
// items have them, an empty state, and how to upload one with the Python SDK.
import { CloudUploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Flex, Modal, Typography, theme } from 'antd';
import { useState } from 'react';
import { useParams } from 'react-router';
import { featuresQuery } from '../../api/queries/explore';
import { CopyButton } from '../../components/CopyButton';
import { DelayedLoading } from '../../components/DelayedLoading';
import { FeatureTable } from '../../components/FeatureTable';
import { isNotFound, NotFoundState } from '../../app/errors/NotFoundState';
import { ErrorFallback } from '../../components/ErrorFallback';
import { Page, type Crumb } from '../../components/Page';
import { useDataset } from '../datasets';
import { SdkDocsLink } from '../sdk';
import { featureStrings as strings } from './strings';
import { uploadFeaturesSnippet } from './uploadSnippet';

function UploadInstructions({
  open,
  onClose,
  snippet,
}: {
  open: boolean;
  onClose: () => void;
  snippet: string;
}) {
  const { token } = theme.useToken();
  return (
    <Modal
      open={open}
      title={strings.uploadTitle}
      onCancel={onClose}
      footer={<Button onClick={onClose}>{strings.close}</Button>}
      width={760}
    >
      <Flex vertical gap={12}>
        <Typography.Text>{strings.uploadIntro}</Typography.Text>
        <Flex
          gap={8}
          align="flex-start"
          style={{
            background: token.colorFillQuaternary,
            border: `1px solid ${token.colorBorderSecondary}`,
            borderRadius: token.borderRadius,
            padding: '8px 8px 8px 12px',
          }}
        >
          <pre
            data-testid="upload-features-snippet"
            style={{
              flex: 1,
              margin: 0,
              minWidth: 0,
              overflowX: 'auto',
              fontFamily: token.fontFamilyCode,
              fontSize: token.fontSizeSM,
              lineHeight: 1.7,
            }}
          >
            {snippet}
          </pre>
          <CopyButton text={snippet} label={strings.copySnippet} />
        </Flex>
        <Typography.Text type="secondary">{strings.uploadNotes}</Typography.Text>
        <div>
          <SdkDocsLink section="upload_features" />
        </div>
      </Flex>
    </Modal>
  );
}

export function FeaturesPage() {
  const { datasetId = '' } = useParams();
  const dataset = useDataset(datasetId);
  const features = useQuery(featuresQuery(datasetId));
  const [uploadOpen, setUploadOpen] = useState(false);

  const crumbs: Crumb[] = [{ title: strings.datasets, to: '/datasets' }];
  if (dataset.data)
    crumbs.push({ title: dataset.data.name, to: `/datasets/${datasetId}/overview` });
  const uploadButton = (
    <Button icon={<CloudUploadOutlined />} onClick={() => setUploadOpen(true)}>
      {strings.uploadFeatures}
    </Button>
  );
  const failure = dataset.error ?? features.error;
  let content: React.ReactNode;
  if (isNotFound(dataset.error)) {
    content = <NotFoundState title={strings.datasetNotFound} />;
  } else if (failure) {
    content = (
      <ErrorFallback
        title={strings.failed}
        error={failure}
        onRetry={() => void (dataset.isError ? dataset.refetch() : features.refetch())}
      />
    );
  } else if (!dataset.data || !features.data) {
    content = <DelayedLoading />;
  } else if (features.data.length === 0) {
    content = (
      <Empty
        style={{ marginTop: 48 }}
        description={
          <Flex vertical gap={4}>
            <Typography.Text strong>{strings.noFeatures}</Typography.Text>
            <Typography.Text type="secondary">{strings.noFeaturesHint}</Typography.Text>
          </Flex>
        }
      >
        {uploadButton}
      </Empty>
    );
  } else {
    content = <FeatureTable features={features.data} testId="features-table" />;
  }
  return (
    <Page
      title={strings.title}
      breadcrumbs={crumbs}
      tools={features.data?.length ? uploadButton : undefined}
      testId="dataset-features"
    >
      {content}
      {dataset.data && (
        <UploadInstructions
          open={uploadOpen}
          onClose={() => setUploadOpen(false)}
          snippet={uploadFeaturesSnippet(dataset.data)}
        />
      )}
    </Page>
  );
}
