// The main navigation: datasets and models, the dataset and model groups, and at the bottom the
// license tag, Help, the profile menu and Settings (docs/product.md, Shell §2).
import {
  CompassOutlined,
  DashboardOutlined,
  DatabaseOutlined,
  FunctionOutlined,
  LineChartOutlined,
  PartitionOutlined,
  SafetyCertificateOutlined,
  SwapOutlined,
  TableOutlined,
  ExperimentOutlined,
  MenuFoldOutlined,
  QuestionCircleOutlined,
  SettingOutlined,
} from '@ant-design/icons';
import { Avatar, Button, Flex, Menu, Tooltip, Typography, theme, type MenuProps } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { BrandMark } from '../../components/BrandMark';
import { useDatasetModels, useDatasets } from '../../features/datasets';
import type { PredictionSet } from '@loupe/contracts';
import { ProfileMenu } from '../../features/profile';
import { useTheme } from '../theme/useTheme';
import { ChooseModelDialog } from './ChooseModelDialog';
import { NavLicenseTag } from './NavLicenseTag';
import {
  DATASET_LINKS,
  MODEL_LINKS,
  currentSection,
  datasetPath,
  modelPath,
  selectionFromPath,
} from './navModel';
import { navStrings } from './strings';

export const NAV_WIDTH = 232;

const SECTION_ICONS: Record<string, ReactNode> = {
  overview: <DashboardOutlined />,
  checks: <SafetyCertificateOutlined />,
  performance: <LineChartOutlined />,
  compare: <SwapOutlined />,
  explore: <CompassOutlined />,
  metadata: <TableOutlined />,
  features: <FunctionOutlined />,
  subsets: <PartitionOutlined />,
};

export interface MainNavProps {
  onCollapse: () => void;
  onHelp: () => void;
}

export function MainNav({ onCollapse, onHelp }: MainNavProps) {
  const { token } = theme.useToken();
  const { theme: current } = useTheme();
  const location = useLocation();
  const navigate = useNavigate();
  const selection = selectionFromPath(location.pathname);
  const datasets = useDatasets().data ?? [];
  const dataset = datasets.find((item) => item.id === selection.datasetId);
  const models = useDatasetModels(selection.datasetId).data ?? [];
  const hasModels = (dataset?.predictions_count ?? 0) > 0 || models.length > 0;
  const model = models.find((item) => item.id === selection.predictionSetId);
  const [pendingSection, setPendingSection] = useState<string | null>(null);
  const section = currentSection(location.pathname);

  const openModel = (sectionKey: string, model: PredictionSet) =>
    void navigate(modelPath(selection.datasetId ?? '', model.id, sectionKey));

  const items = useMemo<MenuProps['items']>(() => {
    const list: NonNullable<MenuProps['items']> = [
      { key: '/datasets', icon: <DatabaseOutlined />, label: navStrings.datasets },
      { key: '/models', icon: <ExperimentOutlined />, label: navStrings.models },
    ];
    if (selection.datasetId) {
      list.push({
        type: 'group',
        key: 'dataset-group',
        label: dataset ? `${navStrings.dataset}: ${dataset.name}` : navStrings.dataset,
        children: DATASET_LINKS.map((link) => ({
          key: `dataset:${link.key}`,
          icon: SECTION_ICONS[link.key],
          label: link.label,
        })),
      });
    }
    if (selection.datasetId && hasModels) {
      list.push({
        type: 'group',
        key: 'model-group',
        label: model ? `${navStrings.model}: ${model.name}` : navStrings.model,
        children: MODEL_LINKS.map((link) => ({
          key: `model:${link.key}`,
          icon: SECTION_ICONS[link.key],
          label: link.label,
        })),
      });
    }
    return list;
  }, [selection.datasetId, dataset, model, hasModels]);

  const selectedKeys = selection.predictionSetId
    ? [`model:${section ?? 'overview'}`]
    : selection.datasetId
      ? [`dataset:${section ?? 'overview'}`]
      : ['/datasets', '/models'].filter((key) => location.pathname.startsWith(key));

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('/')) return void navigate(key);
    const [group, sectionKey = 'overview'] = key.split(':');
    const datasetId = selection.datasetId ?? '';
    if (group === 'dataset') return void navigate(datasetPath(datasetId, sectionKey));
    if (selection.predictionSetId) {
      return void navigate(modelPath(datasetId, selection.predictionSetId, sectionKey));
    }
    const [only] = models;
    if (models.length === 1 && only) return openModel(sectionKey, only);
    setPendingSection(sectionKey);
  };

  return (
    <nav
      aria-label={navStrings.mainNavigation}
      style={{
        width: NAV_WIDTH,
        height: '100vh',
        display: 'flex',
        flexDirection: 'column',
        background: current.navBackground,
        borderRight: `1px solid ${token.colorBorderSecondary}`,
      }}
    >
      <Flex align="center" justify="space-between" style={{ padding: '16px 12px 12px 20px' }}>
        <BrandMark />
        <Tooltip title={navStrings.collapse} placement="right">
          <Button
            type="text"
            icon={<MenuFoldOutlined />}
            onClick={onCollapse}
            aria-label={navStrings.collapse}
          />
        </Tooltip>
      </Flex>
      <div style={{ flex: 1, overflowY: 'auto' }}>
        <Menu
          mode="inline"
          items={items}
          selectedKeys={selectedKeys}
          onClick={onClick}
          style={{ background: 'transparent', borderInlineEnd: 'none' }}
        />
      </div>
      <Flex
        vertical
        gap={4}
        style={{ padding: 12, borderTop: `1px solid ${token.colorBorderSecondary}` }}
      >
        <div style={{ padding: '4px 8px 8px' }}>
          <NavLicenseTag />
        </div>
        <Button
          type="text"
          icon={<QuestionCircleOutlined />}
          onClick={onHelp}
          style={{ justifyContent: 'flex-start' }}
        >
          {navStrings.help}
        </Button>
        <ProfileMenu
          renderTrigger={({ name, initials }) => (
            <Button
              type="text"
              block
              style={{ justifyContent: 'flex-start', paddingInline: 6 }}
              aria-label={`Profile: ${name}`}
            >
              <Avatar size={22} style={{ background: token.colorPrimary, fontSize: 11 }}>
                {initials}
              </Avatar>
              <Typography.Text ellipsis style={{ maxWidth: 150 }}>
                {name}
              </Typography.Text>
            </Button>
          )}
        />
        <Button
          type={location.pathname.startsWith('/settings') ? 'link' : 'text'}
          icon={<SettingOutlined />}
          onClick={() => void navigate('/settings')}
          style={{ justifyContent: 'flex-start' }}
        >
          {navStrings.settings}
        </Button>
      </Flex>
      <ChooseModelDialog
        open={pendingSection !== null}
        models={models}
        onClose={() => setPendingSection(null)}
        onChoose={(model) => {
          const sectionKey = pendingSection ?? 'overview';
          setPendingSection(null);
          openModel(sectionKey, model);
        }}
      />
    </nav>
  );
}
