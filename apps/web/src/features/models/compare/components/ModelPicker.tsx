// What the page shows until model B is chosen (or when the chosen one cannot be compared): a
// picker of the dataset's other models, searchable by name; disabled, with the reason, without a
// license.
import type { PredictionSet } from '@loupe/contracts';
import { Card, Empty, Flex, Select, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { DisabledTooltip } from '../../../../components/DisabledTooltip';
import { comparisonPath, matchesModelSearch } from '../comparisonRules';
import { compareStrings as strings } from '../strings';

export interface ModelPickerProps {
  datasetId: string;
  modelA: string;
  others: readonly PredictionSet[];
  licensed: boolean;
}

export function ModelPicker({ datasetId, modelA, others, licensed }: ModelPickerProps) {
  const navigate = useNavigate();
  const lock = licensed ? null : strings.needsLicense;
  return (
    <Card size="small" data-testid="model-picker">
      <Flex vertical gap={8} align="flex-start">
        <Typography.Text strong>{strings.chooseModelB}</Typography.Text>
        <Typography.Text type="secondary">{strings.pickerHint}</Typography.Text>
        {others.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noOtherModels} />
        ) : (
          <DisabledTooltip reason={lock}>
            <Select
              showSearch={{
                filterOption: (input, option) =>
                  matchesModelSearch(String(option?.label ?? ''), input),
              }}
              aria-label={strings.chooseModelB}
              placeholder={strings.chooseModelB}
              disabled={lock !== null}
              style={{ minWidth: 320 }}
              options={others.map((model) => ({ value: model.id, label: model.name }))}
              onChange={(id: string) => void navigate(comparisonPath(datasetId, modelA, id))}
            />
          </DisabledTooltip>
        )}
      </Flex>
    </Card>
  );
}
