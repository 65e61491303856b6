// 'Explore items for Model A' / 'Explore items for Model B': the explorer of each model showing
// exactly a bar's items, with the comparison context; only the sides given (a subcategory where
// one model has no prediction shows the other's link alone).
import { SearchOutlined } from '@ant-design/icons';
import type { ComparisonExploreConfig } from '@loupe/contracts';
import { Flex } from 'antd';
import { Link } from 'react-router';
import { comparisonExplorePath, type ModelSide } from '../comparisonRules';
import { compareStrings as strings } from '../strings';

export interface ExploreLinksProps {
  datasetId: string;
  config: ComparisonExploreConfig | null;
  sides?: readonly ModelSide[];
  vertical?: boolean;
}

export function ExploreLinks({
  datasetId,
  config,
  sides = ['model_a', 'model_b'],
  vertical = false,
}: ExploreLinksProps) {
  if (!config) return null;
  return (
    <Flex gap={vertical ? 4 : 12} vertical={vertical} wrap="wrap">
      {sides.map((side) => (
        <Link key={side} to={comparisonExplorePath(datasetId, side, config)}>
          <SearchOutlined style={{ marginRight: 4 }} />
          {side === 'model_a' ? strings.exploreModelA : strings.exploreModelB}
        </Link>
      ))}
    </Flex>
  );
}
