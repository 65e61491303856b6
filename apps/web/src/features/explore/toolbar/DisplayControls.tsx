// How the items are displayed, in the page header: the view (split, grid, embeddings), for the
// grid which values the cards show and how wide they are, and the attribution drawn over them.
import { AppstoreOutlined, DotChartOutlined, SplitCellsOutlined } from '@ant-design/icons';
import type { MetadataFieldInfo } from '@loupe/contracts';
import { Flex, Segmented } from 'antd';
import { EXPLORE_VIEWS, type ExploreView } from '../exploreState';
import { exploreStrings as strings } from '../strings';
import { CardConfig } from './CardConfig';
import { ZoomControl } from './ZoomControl';

const VIEWS: Record<ExploreView, { label: string; icon: React.ReactNode }> = {
  split: { label: strings.viewSplit, icon: <SplitCellsOutlined /> },
  grid: { label: strings.viewGrid, icon: <AppstoreOutlined /> },
  embeddings: { label: strings.viewEmbeddings, icon: <DotChartOutlined /> },
};

export interface DisplayControlsProps {
  view: ExploreView;
  onViewChange(view: ExploreView): void;
  /** The grid's card settings; null when no grid is shown. */
  cards: {
    fields: MetadataFieldInfo[];
    toggles: string[];
    onTogglesChange(toggles: string[]): void;
    width: number;
    onWidthChange(width: number): void;
  } | null;
  /** The attribution picker, where the task draws attributions. */
  attribution?: React.ReactNode;
}

export function DisplayControls({ view, onViewChange, cards, attribution }: DisplayControlsProps) {
  return (
    <Flex gap={12} align="center" data-testid="explore-display">
      {attribution}
      {cards && (
        <>
          <ZoomControl value={cards.width} onChange={cards.onWidthChange} />
          <CardConfig
            fields={cards.fields}
            toggles={cards.toggles}
            onChange={cards.onTogglesChange}
          />
        </>
      )}
      <Segmented<ExploreView>
        aria-label={strings.view}
        value={view}
        options={EXPLORE_VIEWS.map((value) => ({
          value,
          label: VIEWS[value].label,
          icon: VIEWS[value].icon,
        }))}
        onChange={onViewChange}
      />
    </Flex>
  );
}
