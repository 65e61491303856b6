// The item viewer is its own feature (features/item-viewer, exported as ItemViewer). It is
// loaded lazily through a glob so the explorer builds whether or not that feature is present;
// until it is, a plain 'Item Details' dialog with previous/next stands in.
import { LeftOutlined, RightOutlined } from '@ant-design/icons';
import type { DataLevel, Dataset } from '@loupe/contracts';
import { Button, Flex, Modal, Typography } from 'antd';
import { Suspense, lazy, useEffect, type ComponentType } from 'react';

/** The item viewer's props, as agreed with features/item-viewer. */
export interface ItemViewerProps {
  dataset: Dataset;
  dataLevel: DataLevel;
  predictionsId?: string;
  rows: Uint32Array;
  version: number;
  index: number;
  /** The card toggles: the viewer's 'Card config' metadata group. */
  cardConfigIds?: string[];
  onIndexChange(index: number): void;
  onClose(): void;
}

const modules = import.meta.glob<{ ItemViewer?: ComponentType<ItemViewerProps> }>(
  '../item-viewer/index.ts',
);
const load = modules['../item-viewer/index.ts'];

const LazyViewer = load
  ? lazy(async () => {
      const module = await load();
      return { default: module.ItemViewer ?? StandInViewer };
    })
  : null;

function StandInViewer({ rows, index, onIndexChange, onClose }: ItemViewerProps) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'ArrowLeft' && index > 0) onIndexChange(index - 1);
      if (event.key === 'ArrowRight' && index < rows.length - 1) onIndexChange(index + 1);
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, rows.length, onIndexChange, onClose]);
  return (
    <Modal open title="Item Details" onCancel={onClose} footer={null} width={480}>
      <Flex align="center" justify="space-between">
        <Button
          icon={<LeftOutlined />}
          aria-label="Previous"
          disabled={index <= 0}
          onClick={() => onIndexChange(index - 1)}
        />
        <Typography.Text>{`${index + 1}/${rows.length}`}</Typography.Text>
        <Button
          icon={<RightOutlined />}
          aria-label="Next"
          disabled={index >= rows.length - 1}
          onClick={() => onIndexChange(index + 1)}
        />
      </Flex>
    </Modal>
  );
}

export function ItemViewerSlot(props: ItemViewerProps) {
  if (!LazyViewer) return <StandInViewer {...props} />;
  return (
    <Suspense fallback={null}>
      <LazyViewer {...props} />
    </Suspense>
  );
}
