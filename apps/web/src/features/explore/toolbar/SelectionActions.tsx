// The bulk-actions counter (docs/product.md, Datasets §2): 'N selected' with a clear button, the
// curation actions on the selected items (docs/curation.md), and Find similar, which needs a
// valid license.
import { CloseOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Flex, Tag, Tooltip } from 'antd';
import { exploreStrings as strings } from '../strings';

export interface SelectionActionsProps {
  count: number;
  licensed: boolean;
  /** The curation actions on the selection (SelectionItemActions). */
  actions?: React.ReactNode;
  onClear(): void;
  onFindSimilar(): void;
}

export function SelectionActions({
  count,
  licensed,
  actions,
  onClear,
  onFindSimilar,
}: SelectionActionsProps) {
  return (
    <Flex gap={4} align="center">
      <Tag
        color="processing"
        data-testid="selection-counter"
        style={{ marginInlineEnd: 0, paddingInlineEnd: 2 }}
      >
        {strings.selected(count)}
        <Button
          type="text"
          size="small"
          icon={<CloseOutlined />}
          aria-label={strings.clearSelection}
          onClick={onClear}
          style={{ height: 18, width: 18, marginInlineStart: 4 }}
        />
      </Tag>
      {actions}
      <Tooltip title={licensed ? undefined : strings.findSimilarNeedsLicense}>
        <span data-testid="find-similar">
          <Button
            size="small"
            icon={<SearchOutlined />}
            disabled={!licensed}
            onClick={onFindSimilar}
          >
            {strings.findSimilar}
          </Button>
        </span>
      </Tooltip>
    </Flex>
  );
}
