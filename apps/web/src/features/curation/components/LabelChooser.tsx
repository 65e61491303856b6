// Chooses the label an action gives items: only the dataset's existing labels (its class names).
import { Select, Typography } from 'antd';
import { curationStrings as strings } from '../strings';

export interface LabelChooserProps {
  labels: readonly string[];
  value: string | null;
  onChange(label: string): void;
}

export function LabelChooser({ labels, value, onChange }: LabelChooserProps) {
  if (labels.length === 0)
    return <Typography.Text type="secondary">{strings.noLabels}</Typography.Text>;
  return (
    <Select
      aria-label={strings.label}
      placeholder={strings.chooseLabel}
      value={value ?? undefined}
      onChange={onChange}
      showSearch
      options={labels.map((label) => ({ value: label, label }))}
      style={{ width: '100%' }}
      data-testid="label-chooser"
    />
  );
}
