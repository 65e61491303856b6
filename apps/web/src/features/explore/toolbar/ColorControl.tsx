// Colour by a property (docs/product.md, Datasets §5): categorical (booleans, strings with allowed values)
// or continuous (numbers, timestamps); other strings are offered disabled with the reason.
import { BgColorsOutlined } from '@ant-design/icons';
import type { MetadataFieldInfo } from '@loupe/contracts';
import { Flex } from 'antd';
import { colorAvailability } from '../colorRules';
import { exploreStrings as strings } from '../strings';
import { PropertySelect } from './PropertySelect';

export function colorMessages() {
  return { tooManyValues: strings.colorTooManyValues, recomputing: strings.recomputing };
}

export interface ColorControlProps {
  colorBy: string | null;
  fields: MetadataFieldInfo[];
  disabled?: boolean;
  onChange(colorBy: string | null): void;
}

export function ColorControl({ colorBy, fields, disabled = false, onChange }: ColorControlProps) {
  return (
    <Flex align="center" gap={6}>
      <BgColorsOutlined aria-hidden />
      <PropertySelect
        fields={fields}
        value={colorBy}
        placeholder={strings.colorBy}
        ariaLabel={strings.colorBy}
        disabledReason={(field) => colorAvailability(field, colorMessages()).reason}
        onSelect={(id) => onChange(id)}
        onClear={() => onChange(null)}
        disabled={disabled}
        style={{ minWidth: 160 }}
      />
    </Flex>
  );
}
