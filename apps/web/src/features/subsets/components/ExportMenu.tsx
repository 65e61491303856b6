// Export: a menu of two downloads, coco and csv (docs/product.md, Datasets §2); COCO only for
// tasks whose samples carry objects. Each choice is a link the browser downloads with the
// session cookie. Without a valid license the menu is disabled with the reason.
import { DownOutlined, ExportOutlined } from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { DisabledTooltip } from '../../../components/DisabledTooltip';
import type { ExportChoice } from '../hooks/useExportSubset';
import { subsetStrings as strings } from '../strings';

const LABELS = { coco: strings.exportCoco, csv: strings.exportCsv } as const;

export function ExportMenu({
  choices,
  disabledReason,
}: {
  choices: ExportChoice[];
  disabledReason: string | null;
}) {
  const items: MenuProps['items'] = choices.map(({ format, enabled, href }) => ({
    key: format,
    disabled: !enabled,
    title: enabled ? undefined : strings.cocoNeedsObjects,
    label: enabled ? (
      <a href={href} download data-testid={`export-${format}`}>
        {LABELS[format]}
      </a>
    ) : (
      <span data-testid={`export-${format}`} title={strings.cocoNeedsObjects}>
        {LABELS[format]}
      </span>
    ),
  }));
  return (
    <DisabledTooltip reason={disabledReason}>
      <Dropdown menu={{ items }} trigger={['click']} disabled={disabledReason !== null}>
        <Button icon={<ExportOutlined />} disabled={disabledReason !== null}>
          {strings.export} <DownOutlined />
        </Button>
      </Dropdown>
    </DisabledTooltip>
  );
}
