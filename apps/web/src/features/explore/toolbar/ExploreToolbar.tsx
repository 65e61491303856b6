// The query line above the grid (docs/product.md, Datasets §2): back, the dataset's name, data
// level, sort, filter and colour on the left; the selection with its actions, the pending
// changes and the item count on the right; the colour legend below. It stays on one line at
// 1280 px with a sort, a colour and a selection active (the display controls sit in the page
// header).
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Flex, Segmented, Tooltip, Typography } from 'antd';
import type { Dataset } from '@loupe/contracts';
import type { ExploreController } from '../hooks/useExploreController';
import { exploreStrings as strings, levelLabel } from '../strings';
import { FilterPopover } from '../filter/FilterPopover';
import { ColorControl } from './ColorControl';
import { ColorLegend } from './ColorLegend';
import { PendingChangesButton } from './PendingChangesButton';
import { SelectionActions } from './SelectionActions';
import { SelectionItemActions } from './SelectionItemActions';
import { SortControl } from './SortControl';

/** The dataset's name in the toolbar gives way (ellipsis) before any control does. */
const TITLE_MAX_WIDTH = 220;

export function ExploreToolbar({
  dataset,
  explore,
}: {
  dataset: Dataset;
  explore: ExploreController;
}) {
  const { state, update, levels, dataLevel, levelLock, fields, metadata, selection } = explore;
  return (
    <Flex vertical gap={8} style={{ marginBottom: 12 }}>
      <Flex
        gap={8}
        wrap="wrap"
        align="center"
        justify="space-between"
        data-testid="explore-toolbar"
      >
        <Flex gap={8} align="center" style={{ flex: '1 1 auto', minWidth: 0 }}>
          <Tooltip title={strings.back}>
            <Button
              icon={<ArrowLeftOutlined />}
              aria-label={strings.back}
              onClick={explore.goBack}
            />
          </Tooltip>
          {/* The title takes what room is left (up to its own width): it gives way before a
              control does, and before the selection wraps to a second line. */}
          <div style={{ width: 0, flexGrow: 1, minWidth: 48, maxWidth: 'max-content' }}>
            <Typography.Title
              level={5}
              ellipsis={{ tooltip: dataset.name }}
              style={{ margin: 0, marginInlineEnd: 8, maxWidth: TITLE_MAX_WIDTH }}
            >
              {dataset.name}
            </Typography.Title>
          </div>
          {levels.length > 1 && (
            <Tooltip title={levelLock}>
              <Segmented
                aria-label={strings.dataLevel}
                value={dataLevel}
                disabled={levelLock !== undefined}
                options={levels.map((level) => ({
                  value: level,
                  label: levelLabel(level, dataset.task_type),
                }))}
                onChange={(level) =>
                  update({
                    dataLevel: level,
                    sort: [],
                    filter: null,
                    colorBy: null,
                    item: null,
                    attribution: null,
                  })
                }
              />
            </Tooltip>
          )}
          <SortControl
            sort={state.sort}
            fields={fields}
            disabled={!metadata.data}
            onChange={(sort) => update({ sort })}
          />
          <FilterPopover
            applied={state.filter}
            fields={fields}
            history={explore.history}
            dataLevel={dataLevel}
            taskType={dataset.task_type}
            disabled={!metadata.data}
            onChange={(filter) => update({ filter })}
          />
          <div style={{ flexShrink: 0 }}>
            <ColorControl
              colorBy={state.colorBy}
              fields={fields}
              disabled={!metadata.data}
              onChange={(colorBy) => update({ colorBy })}
            />
          </div>
        </Flex>
        <Flex gap={8} align="center" style={{ flex: 'none', marginInlineStart: 'auto' }}>
          {selection.rows.size > 0 && (
            <SelectionActions
              count={selection.rows.size}
              licensed={explore.licensed}
              actions={<SelectionItemActions dataset={dataset} explore={explore} />}
              onClear={explore.clear}
              onFindSimilar={() => void explore.findSimilar()}
            />
          )}
          <PendingChangesButton onApplied={(result) => result.ok && explore.clear()} />
          {explore.itemRows.data && (
            <Typography.Text type="secondary" data-testid="items-count">
              {strings.itemsCount(explore.total, explore.numItems)}
            </Typography.Text>
          )}
        </Flex>
      </Flex>
      {explore.colorBy && (
        <ColorLegend field={explore.colorBy.field} scale={explore.colorBy.scale} />
      )}
    </Flex>
  );
}
