// A comparison distribution: the bar chart of the bins (a click opens the explorer of the chosen
// model with the bin's items: the distribution's filter and {bin between [i, i]}), its mean and
// standard deviation, and the help panels.
import type { ComparisonDistribution } from '@loupe/contracts';
import { formatMetricValue } from '@loupe/metrics';
import { Flex, Radio, Typography, theme } from 'antd';
import { useCallback, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { EChart } from '../../performance/charts/EChart';
import { binExploreConfig, comparisonExplorePath, type ModelSide } from '../comparisonRules';
import { useModelColors } from '../hooks/useCategoryColors';
import { compareStrings as strings } from '../strings';
import { DISTRIBUTION_CHART_HEIGHT, distributionChart } from './distributionChart';
import { HelpPanels } from './HelpPanels';

export interface DistributionViewProps {
  datasetId: string;
  /** Names the chart ('Per sample breakdown distribution'). */
  label: string;
  distribution: ComparisonDistribution;
  /** The models whose explorer a bar can open (both unless one has no items there). */
  sides?: readonly ModelSide[];
}

const moment = (value: number | null) => (value === null ? '–' : formatMetricValue(value));

export function DistributionView({
  datasetId,
  label,
  distribution,
  sides = ['model_a', 'model_b'],
}: DistributionViewProps) {
  const { token } = theme.useToken();
  const models = useModelColors();
  const navigate = useNavigate();
  const [chosen, setChosen] = useState<ModelSide>(sides[0] ?? 'model_a');
  const side = sides.includes(chosen) ? chosen : (sides[0] ?? 'model_a');
  const option = useMemo(
    () =>
      distributionChart(distribution, {
        model_a: models.model_a,
        model_b: models.model_b,
        neutral: token.colorTextQuaternary,
        text: token.colorText,
        secondaryText: token.colorTextSecondary,
        line: token.colorBorderSecondary,
      }),
    [distribution, models.model_a, models.model_b, token],
  );
  const config = distribution.explore_config;
  const onClick = useCallback(
    ({ dataIndex }: { dataIndex: number }) => {
      if (!config || (distribution.bins[dataIndex]?.value ?? 0) === 0) return;
      void navigate(comparisonExplorePath(datasetId, side, binExploreConfig(config, dataIndex)));
    },
    [config, datasetId, distribution.bins, navigate, side],
  );
  return (
    <Flex vertical gap={4}>
      <Flex justify="space-between" align="center" wrap="wrap" gap={8}>
        <Typography.Text type="secondary" data-testid="distribution-moments">
          {`${strings.mean} ${moment(distribution.mean)} · ${strings.std} ${moment(distribution.std)}`}
        </Typography.Text>
        {config && sides.length > 1 && (
          <Flex gap={8} align="center">
            <Typography.Text type="secondary">{strings.exploreIn}</Typography.Text>
            <Radio.Group
              size="small"
              optionType="button"
              aria-label={strings.exploreIn}
              value={side}
              onChange={(event) => setChosen(event.target.value as ModelSide)}
              options={[
                { value: 'model_a', label: strings.modelA },
                { value: 'model_b', label: strings.modelB },
              ]}
            />
          </Flex>
        )}
      </Flex>
      <EChart
        option={option}
        height={DISTRIBUTION_CHART_HEIGHT}
        label={label}
        onClick={config ? onClick : undefined}
      />
      <HelpPanels />
    </Flex>
  );
}
