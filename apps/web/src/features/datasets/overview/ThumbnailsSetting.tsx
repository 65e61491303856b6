// Settings → Thumbnails (image datasets): turning them off deletes them all after a confirm;
// turning them on queues their generation, followed until it ends.
import { App, Flex, Switch, Typography } from 'antd';
import { describeError } from '../../../api/ApiError';
import { useSetThumbnails } from '../hooks/useSetThumbnails';
import { useThumbnailConfig } from '../hooks/useThumbnailConfig';
import { useThumbnailGeneration } from '../hooks/useThumbnailGeneration';
import { datasetStrings as strings } from '../strings';
import { SettingRow } from './SettingRow';

export interface ThumbnailsSettingProps {
  datasetId: string;
  /** Thumbnails are on, there are samples and no preview yet: a job may be running. */
  expectingThumbnails: boolean;
}

export function ThumbnailsSetting({ datasetId, expectingThumbnails }: ThumbnailsSettingProps) {
  const { message, modal } = App.useApp();
  const config = useThumbnailConfig(datasetId);
  const save = useSetThumbnails(datasetId);
  const generation = useThumbnailGeneration(datasetId, expectingThumbnails);
  const enabled = config.data?.enabled ?? false;

  const failed = (error: unknown) =>
    void message.error(`${strings.thumbnailsFailed} ${describeError(error)}`);

  const onChange = (next: boolean) => {
    if (next) {
      generation.queuing();
      save.mutate(true, {
        onError: (error) => {
          generation.cancel();
          failed(error);
        },
      });
      return;
    }
    void modal.confirm({
      title: strings.disableThumbnailsTitle,
      content: strings.disableThumbnails,
      okText: strings.disable,
      okButtonProps: { danger: true },
      cancelText: strings.cancel,
      onOk: () => save.mutateAsync(false).catch(failed),
    });
  };

  return (
    <SettingRow
      title={strings.thumbnails}
      description={
        generation.pending && enabled ? (
          <span data-testid="thumbnails-generating">{strings.thumbnailsGenerating}</span>
        ) : (
          strings.thumbnailsHelp
        )
      }
    >
      {config.isError ? (
        <Typography.Text type="danger">{describeError(config.error)}</Typography.Text>
      ) : (
        <Flex align="center" gap={8}>
          <Switch
            aria-label={strings.thumbnails}
            checked={enabled}
            loading={config.isPending || save.isPending || (generation.pending && enabled)}
            disabled={config.isPending}
            onChange={onChange}
          />
        </Flex>
      )}
    </SettingRow>
  );
}
