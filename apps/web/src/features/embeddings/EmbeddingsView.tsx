// The embeddings map (docs/product.md, Datasets §2, §4, §9): fetches its settings and points, polls while
// they compute, draws them with WebGL, previews the hovered and selected items, reports lasso
// selections and point clicks, and explains every state that is not a map. What the map knows
// and does is in hooks/useEmbeddingsController.ts; this file is layout.
import { ReloadOutlined } from '@ant-design/icons';
import type { DataLevel, Dataset, Filter } from '@loupe/contracts';
import { Button, Flex, Progress, Result, Spin, Typography, theme } from 'antd';
import { commonStrings } from '../../components/strings';
import type { ComparedModels } from '../../lib/comparedModels';
import { SupportBundleButton } from '../../components/SupportBundleButton';
import { EmbeddingsSettingsDialog } from './EmbeddingsSettingsDialog';
import { EmbeddingsToolbar } from './EmbeddingsToolbar';
import { HoverPreview } from './HoverPreview';
import {
  useEmbeddingsController,
  type EmbeddingsController,
} from './hooks/useEmbeddingsController';
import { Legend } from './Legend';
import { ScatterCanvas } from './ScatterCanvas';
import { SelectionStrip } from './SelectionStrip';
import { embeddingsStrings as strings } from './strings';

export interface EmbeddingsViewProps {
  dataset: Dataset;
  dataLevel: DataLevel;
  predictionsId?: string;
  /**
   * The explorer's comparison of two models, if it is in one: sent with the points, so the filter
   * and the colouring may name the comparison's per-item fields; the hover preview shows both
   * models' predictions.
   */
  compared?: ComparedModels | null;
  filter?: Filter | null;
  /** Only this subset's items (the explorer's ?subset_id=), of the same data level. */
  subsetId?: string;
  colorBy?: string | null;
  /** The selection as item-table rows (the grid's), of the table of `tableVersion`. */
  selectedRows: ReadonlySet<number>;
  tableVersion?: number;
  /** A lasso's points, or none, as rows of the item table of `version`. */
  onSelectionChange(rows: number[], version: number): void;
  onOpenItem(row: number, version: number): void;
  /** What the owner offers on the selection (its actions), shown with the selection's preview. */
  selectionActions?: React.ReactNode;
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <Flex align="center" justify="center" style={{ position: 'absolute', inset: 0, padding: 24 }}>
      {children}
    </Flex>
  );
}

export function EmbeddingsView(props: EmbeddingsViewProps) {
  const { dataset, dataLevel, predictionsId } = props;
  const { token } = theme.useToken();
  const map = useEmbeddingsController(props);
  return (
    <Flex
      vertical
      data-testid="embeddings-view"
      style={{ height: '100%', minHeight: 320, background: token.colorBgContainer }}
    >
      <EmbeddingsToolbar
        mouseMode={map.mouseMode}
        onMouseModeChange={map.setMouseMode}
        canZoomIn={map.canZoomIn}
        canZoomOut={map.canZoomOut}
        onZoom={map.zoom}
        onReset={map.resetView}
        pointSize={map.pointSize}
        onPointSizeChange={map.setPointSize}
        numPoints={map.numPoints}
        onOpenSettings={map.openSettings}
        mapReady={map.mapReady}
      />
      <div
        ref={map.containerRef}
        onMouseMove={map.onPointerMove}
        onMouseLeave={map.onPointerLeave}
        style={{
          position: 'relative',
          flex: 1,
          overflow: 'hidden',
          borderTop: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        <MapArea {...props} map={map} />
      </div>
      {map.settingsOpen && map.settings.data && (
        <EmbeddingsSettingsDialog
          datasetId={dataset.id}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          settings={map.settings.data}
          numPoints={map.numPoints ?? dataset.samples_count ?? 0}
          onClose={map.closeSettings}
        />
      )}
    </Flex>
  );
}

/** The map, or the state that stands in for it. */
function MapArea({ map, ...props }: EmbeddingsViewProps & { map: EmbeddingsController }) {
  const { dataset, dataLevel, predictionsId, onOpenItem } = props;
  const { token } = theme.useToken();
  switch (map.status) {
    case 'loading':
      return (
        <Centered>
          <Spin />
        </Centered>
      );
    case 'settingsFailed':
    case 'pointsFailed':
      return (
        <Centered>
          <Result
            status="error"
            title={strings.loadFailed}
            extra={
              <Button
                icon={<ReloadOutlined />}
                onClick={() =>
                  void (map.status === 'settingsFailed' ? map.settings : map.points).refetch()
                }
              >
                {commonStrings.retry}
              </Button>
            }
          />
        </Centered>
      );
    case 'noFeatures':
      return (
        <Centered>
          <Result status="info" title={strings.noFeaturesTitle} subTitle={strings.noFeaturesText} />
        </Centered>
      );
    case 'computeFailed':
      return (
        <Centered>
          <Result
            status="warning"
            title={strings.failedTitle}
            subTitle={strings.failedSuggestion}
            extra={
              <Button type="primary" onClick={map.openSettings}>
                {strings.settings}
              </Button>
            }
          />
        </Centered>
      );
    case 'computing': {
      const progress = map.points.data?.progress;
      return (
        <Centered>
          <Flex vertical align="center" gap={12} role="status" data-testid="embeddings-computing">
            {typeof progress === 'number' ? (
              <Progress type="circle" size={80} percent={Math.round(progress * 100)} />
            ) : (
              <Spin size="large" />
            )}
            <Typography.Text strong>{strings.computing}</Typography.Text>
            <Typography.Text type="secondary">{strings.computingDetail}</Typography.Text>
          </Flex>
        </Centered>
      );
    }
    case 'webglLost':
      return (
        <Centered>
          <Result
            status="error"
            title={strings.webglLostTitle}
            subTitle={
              <span style={{ maxWidth: 560, display: 'inline-block' }}>
                {strings.webglLostText}
              </span>
            }
            extra={
              <Flex gap={8} wrap justify="center">
                <Button
                  type="primary"
                  icon={<ReloadOutlined />}
                  onClick={() => window.location.reload()}
                >
                  {strings.refresh}
                </Button>
                <SupportBundleButton label={strings.debugInformation} />
              </Flex>
            }
          />
        </Centered>
      );
    case 'none':
      return null;
    case 'map':
      break;
  }
  const { scatterPoints, ready, parsed, hovered } = map;
  if (!scatterPoints || !parsed) return null;
  return (
    <>
      <ScatterCanvas
        points={scatterPoints}
        colors={map.colors}
        pointSize={map.pointSize}
        mouseMode={map.mouseMode}
        lassoKey={map.lassoKey}
        selectedIndices={map.selectedIndices}
        onReady={map.setHandle}
        onContextLost={map.onContextLost}
        onHover={map.onHover}
        onLasso={map.onLasso}
        onPointClick={map.onPointClick}
        onDeselect={map.onDeselect}
        onView={map.setDistance}
      />
      {scatterPoints.x.length === 0 && (
        <Centered>
          <Typography.Text type="secondary">{strings.noPoints}</Typography.Text>
        </Centered>
      )}
      <Legend scheme={map.scheme} missingColor={map.missingColor} />
      {ready && ready.num_missing > 0 && (
        <Typography.Text
          type="secondary"
          style={{ position: 'absolute', right: 12, bottom: 8, fontSize: token.fontSizeSM }}
        >
          {strings.numMissing(ready.num_missing)}
        </Typography.Text>
      )}
      {hovered && (
        <HoverPreview
          dataset={dataset}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          compared={props.compared}
          row={hovered.row}
          version={hovered.version}
          x={hovered.x}
          y={hovered.y}
          width={hovered.width}
          height={hovered.height}
        />
      )}
      {map.selectedList.length > 0 && (
        <SelectionStrip
          datasetId={dataset.id}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          selectedRows={map.selectedList}
          version={parsed.version}
          onOpenItem={(row) => onOpenItem(row, parsed.version)}
          onClear={map.onDeselect}
          actions={props.selectionActions}
        />
      )}
    </>
  );
}
