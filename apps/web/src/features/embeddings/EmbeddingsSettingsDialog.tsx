// The embeddings settings dialog: feature (under a model, its own features grouped apart from the
// dataset's), reduction method and its parameter; Apply only for a valid change (docs/product.md,
// Datasets §5).
import type { DataLevel, EmbeddingsSettings } from '@loupe/contracts';
import { Alert, App, Form, InputNumber, Modal, Select, Segmented, type SelectProps } from 'antd';
import { useState } from 'react';
import { describeError } from '../../api/ApiError';
import { useUpdateEmbeddingsSettings } from './hooks/useEmbeddingsSettings';
import {
  METHODS,
  NUM_NEIGHBORS,
  PERPLEXITY,
  checkSettings,
  draftFrom,
  tsneIsSlow,
  type ReductionMethod,
  type SettingsDraft,
} from './settingsRules';
import { embeddingsStrings as strings } from './strings';

export interface EmbeddingsSettingsDialogProps {
  datasetId: string;
  dataLevel: DataLevel;
  predictionsId?: string;
  settings: EmbeddingsSettings;
  /** Points the map would show, for the t-SNE warning. */
  numPoints: number;
  onClose(): void;
}

/** The feature picker's options: one list, or the model's features and the dataset's apart. */
export function featureOptions(settings: EmbeddingsSettings): SelectProps['options'] {
  const option = (name: string) => ({ value: name, label: name });
  const model = new Set(settings.predictions_feature_names);
  if (model.size === 0) return settings.feature_names.map(option);
  const dataset = settings.feature_names.filter((name) => !model.has(name));
  return [
    { label: strings.modelFeatures, options: settings.predictions_feature_names.map(option) },
    ...(dataset.length > 0
      ? [{ label: strings.datasetFeatures, options: dataset.map(option) }]
      : []),
  ];
}

export function EmbeddingsSettingsDialog(props: EmbeddingsSettingsDialogProps) {
  const { notification } = App.useApp();
  const [draft, setDraft] = useState<SettingsDraft>(() => draftFrom(props.settings));
  const update = useUpdateEmbeddingsSettings(props.datasetId);
  const check = checkSettings(draft, props.settings);
  const change = (patch: Partial<SettingsDraft>) =>
    setDraft((current) => ({ ...current, ...patch }));

  const apply = () => {
    if (!check.canApply || !check.setting || draft.featureName === null) return;
    update.mutate(
      {
        data_level: props.dataLevel,
        predictions_id: props.predictionsId,
        feature_name: draft.featureName,
        dimensionality_reduction_setting: check.setting,
      },
      {
        onSuccess: props.onClose,
        onError: (error) =>
          notification.error({
            message: strings.settingsSaveFailed,
            description: describeError(error),
          }),
      },
    );
  };

  const noFeatures = props.settings.feature_names.length === 0;
  return (
    <Modal
      open
      title={strings.settingsTitle}
      okText={strings.apply}
      cancelText={strings.cancel}
      onOk={apply}
      onCancel={props.onClose}
      okButtonProps={{ disabled: !check.canApply, loading: update.isPending }}
      destroyOnHidden
    >
      {noFeatures ? (
        <Alert type="info" showIcon title={strings.noFeaturesSettings} />
      ) : (
        <Form layout="vertical" requiredMark={false}>
          <Form.Item
            label={strings.feature}
            htmlFor="embeddings-feature"
            validateStatus={check.featureMessage ? 'error' : undefined}
            help={check.featureMessage ?? undefined}
          >
            <Select
              id="embeddings-feature"
              aria-label={strings.feature}
              value={draft.featureName ?? undefined}
              options={featureOptions(props.settings)}
              onChange={(featureName: string) => change({ featureName })}
              showSearch
            />
          </Form.Item>
          <Form.Item label={strings.method}>
            <Segmented<ReductionMethod>
              aria-label={strings.method}
              value={draft.method ?? undefined}
              onChange={(method) => change({ method })}
              options={METHODS.map((method) => ({
                value: method,
                label: strings.methodLabels[method],
              }))}
            />
          </Form.Item>
          {draft.method === 'UMAP' && (
            <Form.Item label={strings.numNeighbors} htmlFor="embeddings-neighbors">
              <InputNumber
                id="embeddings-neighbors"
                min={NUM_NEIGHBORS.min}
                max={NUM_NEIGHBORS.max}
                step={NUM_NEIGHBORS.step}
                precision={0}
                value={draft.numNeighbors}
                onChange={(numNeighbors) => change({ numNeighbors })}
              />
            </Form.Item>
          )}
          {draft.method === 'TSNE' && (
            <Form.Item label={strings.perplexity} htmlFor="embeddings-perplexity">
              <InputNumber
                id="embeddings-perplexity"
                min={PERPLEXITY.min}
                max={PERPLEXITY.max}
                step={PERPLEXITY.step}
                precision={1}
                value={draft.perplexity}
                onChange={(perplexity) => change({ perplexity })}
              />
            </Form.Item>
          )}
          {tsneIsSlow(draft.method, props.numPoints) && (
            <Alert type="warning" showIcon title={strings.tsneSlow(props.numPoints)} />
          )}
        </Form>
      )}
    </Modal>
  );
}
