// Settings → IoU threshold: 0–1 step 0.1, Apply only when changed and in range; with prediction
// sets, a confirm that results of N models become invalid (docs/product.md, Datasets §5).
import { App, Button, Flex, InputNumber, Skeleton, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { describeError } from '../../../api/ApiError';
import { useIouThreshold } from '../hooks/useIouThreshold';
import { useSetIouThreshold } from '../hooks/useSetIouThreshold';
import { datasetStrings as strings } from '../strings';
import { canApplyIou, IOU_STEP, isIouInRange } from './iouRules';
import { SettingRow } from './SettingRow';

export function IouThresholdSetting({ datasetId, models }: { datasetId: string; models: number }) {
  const { message, modal } = App.useApp();
  const current = useIouThreshold(datasetId);
  const save = useSetIouThreshold(datasetId);
  const [value, setValue] = useState<number | null>(null);
  const saved = current.data?.iou_threshold;

  useEffect(() => {
    if (saved !== undefined) setValue(saved);
  }, [saved]);

  const apply = () => {
    if (!canApplyIou(value, saved) || value === null) return;
    const run = () =>
      save.mutateAsync(value).then(
        () => void message.success(strings.iouSaved),
        (error: unknown) => void message.error(`${strings.iouSaveFailed} ${describeError(error)}`),
      );
    if (models > 0) {
      void modal.confirm({
        title: strings.iouConfirmTitle,
        content: strings.iouConfirm(models),
        okText: strings.apply,
        cancelText: strings.cancel,
        onOk: run,
      });
    } else void run();
  };

  return (
    <SettingRow title={strings.iouThreshold} description={strings.iouHelp}>
      {current.isError ? (
        <Typography.Text type="danger">{strings.iouFailed}</Typography.Text>
      ) : current.isPending ? (
        <Skeleton.Input active size="small" />
      ) : (
        <Flex vertical gap={4} align="flex-end">
          <Flex gap={8}>
            <InputNumber
              aria-label={strings.iouThreshold}
              // No min/max here: an out-of-range number stays visible and is refused below.
              step={IOU_STEP}
              value={value}
              onChange={(next) => setValue(next)}
              status={value !== null && !isIouInRange(value) ? 'error' : undefined}
              style={{ width: 96 }}
            />
            <Button
              type="primary"
              disabled={!canApplyIou(value, saved)}
              loading={save.isPending}
              onClick={apply}
            >
              {strings.apply}
            </Button>
          </Flex>
          {value !== null && !isIouInRange(value) && (
            <Typography.Text type="danger" style={{ fontSize: 12 }}>
              {strings.iouRange}
            </Typography.Text>
          )}
        </Flex>
      )}
    </SettingRow>
  );
}
