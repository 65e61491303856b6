// The curation actions on the selection (docs/curation.md): the same menu in the toolbar and
// beside the map's lasso selection. Shown once the selected items are known.
import { DownOutlined, WarningOutlined } from '@ant-design/icons';
import type { Dataset } from '@loupe/contracts';
import { Button, Tooltip } from 'antd';
import { describeError } from '../../../api/ApiError';
import { ItemActions } from '../../curation';
import type { ExploreController } from '../hooks/useExploreController';
import { exploreStrings as strings } from '../strings';

export function SelectionItemActions({
  dataset,
  explore,
}: {
  dataset: Dataset;
  explore: ExploreController;
}) {
  const { items, error } = explore.selectionItems;
  if (error) {
    return (
      <Tooltip title={`${strings.actionsFailed} ${describeError(error)}`}>
        <Button icon={<WarningOutlined />} disabled>
          {strings.actions}
        </Button>
      </Tooltip>
    );
  }
  if (!items) {
    return (
      <Button loading disabled data-testid="item-actions-loading">
        {strings.actions} <DownOutlined />
      </Button>
    );
  }
  return (
    <ItemActions
      datasetId={dataset.id}
      taskType={dataset.task_type}
      dataLevel={explore.dataLevel}
      items={items}
      predictionsId={explore.predictionsId}
      currentSubsetId={explore.subsetId ?? undefined}
      licensed={explore.licensed}
      mode="menu"
      dataset={dataset}
    />
  );
}
