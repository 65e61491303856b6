// The frame both Subset Performance sections share, on the performance page and in the
// comparison: the card with its pending count, search and '+' (which opens the modal enabling
// subsets), and the loading, failure and empty states before the entries (docs/model-performance.md).
import { PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Input, Spin, Typography } from 'antd';
import { useState, type ReactNode } from 'react';
import { ErrorFallback } from '../../../../components/ErrorFallback';
import { EnableSubsetsModal } from '../sections/EnableSubsetsModal';
import { performanceStrings as strings } from '../strings';
import { SectionCard } from './SectionCard';

export interface SubsetSectionFrameProps {
  datasetId: string;
  licensed: boolean;
  query: string;
  onQuery: (query: string) => void;
  /** A failed load: its title and a retry. */
  failure: { title: string; error: unknown; retry: () => void } | null;
  /** Whether the entries have arrived. */
  loaded: boolean;
  /** The dataset has no subsets at all. */
  noSubsets: boolean;
  /** Entries of the split, pending subsets, and the entries the search leaves. */
  entries: number;
  pending: number;
  matching: number;
  /** The entries, shown when there are some to show. */
  children: ReactNode;
}

export function SubsetSectionFrame(props: SubsetSectionFrameProps) {
  const { datasetId, licensed, query, onQuery, failure, pending } = props;
  const [modalOpen, setModalOpen] = useState(false);
  let body: ReactNode;
  if (failure) {
    body = <ErrorFallback title={failure.title} error={failure.error} onRetry={failure.retry} />;
  } else if (!props.loaded) {
    body = (
      <Flex justify="center" style={{ padding: 24 }}>
        <Spin />
      </Flex>
    );
  } else if (props.noSubsets) {
    body = <EmptyText text={strings.noSubsets} />;
  } else if (props.entries === 0 && pending === 0) {
    body = <EmptyText text={strings.noSubsetEntries} hint={strings.noSubsetEntriesHint} />;
  } else if (props.matching === 0 && props.entries > 0) {
    body = <EmptyText text={strings.noSubsetMatches(query.trim())} />;
  } else {
    body = props.children;
  }
  return (
    <SectionCard
      title={strings.subsets}
      label={strings.subsets}
      tools={
        <Flex gap={8} align="center">
          {pending > 0 && (
            <Typography.Text type="secondary" data-testid="subsets-pending">
              <Spin size="small" style={{ marginRight: 6 }} />
              {strings.pending(pending)}
            </Typography.Text>
          )}
          <Input.Search
            size="small"
            allowClear
            placeholder={strings.searchSubsets}
            aria-label={strings.searchSubsets}
            value={query}
            onChange={(event) => onQuery(event.target.value)}
            style={{ width: 200 }}
          />
          <Button
            size="small"
            icon={<PlusOutlined />}
            aria-label={strings.enableSubsets}
            title={strings.enableSubsets}
            onClick={() => setModalOpen(true)}
          />
        </Flex>
      }
    >
      {body}
      <EnableSubsetsModal
        datasetId={datasetId}
        open={modalOpen}
        licensed={licensed}
        onClose={() => setModalOpen(false)}
      />
    </SectionCard>
  );
}

function EmptyText({ text, hint }: { text: string; hint?: string }) {
  return (
    <Empty
      image={Empty.PRESENTED_IMAGE_SIMPLE}
      description={
        <Flex vertical>
          <Typography.Text>{text}</Typography.Text>
          {hint && <Typography.Text type="secondary">{hint}</Typography.Text>}
        </Flex>
      }
    />
  );
}
