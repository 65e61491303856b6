// The Compare menu of the page header: the dataset's other models, searchable by name (case-
// insensitive); choosing one opens the comparison with it as model B. Without a license it is
// disabled and says why.
import { DownOutlined, SwapOutlined } from '@ant-design/icons';
import type { PredictionSet } from '@loupe/contracts';
import { Button, Dropdown, Empty, Flex, Input, Menu, theme } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DisabledTooltip } from '../../../../components/DisabledTooltip';
import { comparisonPath, matchesModelSearch } from '../comparisonRules';
import { compareStrings as strings } from '../strings';

export interface CompareMenuProps {
  datasetId: string;
  modelA: string;
  /** The dataset's models other than A. */
  others: readonly PredictionSet[];
  current: PredictionSet | undefined;
  licensed: boolean;
}

export function CompareMenu({ datasetId, modelA, others, current, licensed }: CompareMenuProps) {
  const { token } = theme.useToken();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  const matching = others.filter((model) => matchesModelSearch(model.name, query));
  const lock = licensed ? null : strings.needsLicense;

  const panel = (
    <div
      style={{
        background: token.colorBgElevated,
        borderRadius: token.borderRadiusLG,
        boxShadow: token.boxShadowSecondary,
        padding: 8,
        width: 280,
      }}
    >
      <Input.Search
        size="small"
        allowClear
        autoFocus
        placeholder={strings.searchModels}
        aria-label={strings.searchModels}
        value={query}
        onChange={(event) => setQuery(event.target.value)}
      />
      {matching.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            others.length === 0 ? strings.noOtherModels : strings.noMatchingModels(query.trim())
          }
        />
      ) : (
        <Menu
          aria-label={strings.compareMenu}
          selectable
          selectedKeys={current ? [current.id] : []}
          style={{ borderInlineEnd: 'none', maxHeight: 320, overflowY: 'auto' }}
          items={matching.map((model) => ({ key: model.id, label: model.name }))}
          onClick={({ key }) => {
            setOpen(false);
            setQuery('');
            void navigate(comparisonPath(datasetId, modelA, key));
          }}
        />
      )}
    </div>
  );

  return (
    <DisabledTooltip reason={lock}>
      <Dropdown
        open={open && lock === null}
        onOpenChange={setOpen}
        trigger={['click']}
        disabled={lock !== null}
        popupRender={() => panel}
      >
        <Button icon={<SwapOutlined />} disabled={lock !== null} aria-label={strings.compareMenu}>
          <Flex gap={6} align="center">
            {current ? `${strings.compareMenu}: ${current.name}` : strings.compareMenu}
            <DownOutlined style={{ fontSize: 10 }} />
          </Flex>
        </Button>
      </Dropdown>
    </DisabledTooltip>
  );
}
