// The embeddings map (docs/product.md, Datasets §2, §4, §9): fetches its settings and points, polls while
// they compute, draws them with WebGL, previews the hovered and selected items, reports lasso
// selections and point clicks, and explains every state that is not a map.
import { ReloadOutlined } from '@ant-design/icons';
import type { DataLevel, Dataset, Filter } from '@loupe/contracts';
import { Button, Flex, Progress, Result, Spin, Typography, theme } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../api/ApiError';
import { commonStrings } from '../../components/strings';
import { SupportBundleButton } from '../../components/SupportBundleButton';
import { canZoomIn, canZoomOut, zoomedDistance } from './camera';
import { opaqueOver } from './colors';
import { EmbeddingsSettingsDialog } from './EmbeddingsSettingsDialog';
import { EmbeddingsToolbar, POINT_SIZE } from './EmbeddingsToolbar';
import { HOVER_DEBOUNCE_MS, HoverPreview } from './HoverPreview';
import { useEmbeddingPoints } from './hooks/useEmbeddingPoints';
import { useEmbeddingsSettings } from './hooks/useEmbeddingsSettings';
import { Legend } from './Legend';
import { buildColorScheme } from './legend';
import { decodeBinaryPoints, paletteIndices } from './points';
import { ScatterCanvas } from './ScatterCanvas';
import type { MouseMode, ScatterColors, ScatterHandle } from './scatter/createScatter';
import { SelectionStrip } from './SelectionStrip';
import { embeddingsStrings as strings } from './strings';

export interface EmbeddingsViewProps {
  dataset: Dataset;
  dataLevel: DataLevel;
  predictionsId?: string;
  filter?: Filter | null;
  colorBy?: string | null;
  /** The selection as item-table rows (the grid's), of the table of `tableVersion`. */
  selectedRows: ReadonlySet<number>;
  tableVersion?: number;
  /** A lasso's points, or none, as rows of the item table of `version`. */
  onSelectionChange(rows: number[], version: number): void;
  onOpenItem(row: number, version: number): void;
}

function useShiftKey(): boolean {
  const [held, setHeld] = useState(false);
  useEffect(() => {
    const down = (event: KeyboardEvent) => event.key === 'Shift' && setHeld(true);
    const up = (event: KeyboardEvent) => event.key === 'Shift' && setHeld(false);
    const blur = () => setHeld(false);
    window.addEventListener('keydown', down);
    window.addEventListener('keyup', up);
    window.addEventListener('blur', blur);
    return () => {
      window.removeEventListener('keydown', down);
      window.removeEventListener('keyup', up);
      window.removeEventListener('blur', blur);
    };
  }, []);
  return held;
}

function Centered({ children }: { children: React.ReactNode }) {
  return (
    <Flex align="center" justify="center" style={{ position: 'absolute', inset: 0, padding: 24 }}>
      {children}
    </Flex>
  );
}

export function EmbeddingsView(props: EmbeddingsViewProps) {
  const { dataset, dataLevel, predictionsId, filter, colorBy } = props;
  const { token } = theme.useToken();
  const settings = useEmbeddingsSettings(dataset.id, dataLevel, predictionsId);
  const featureName = settings.data?.feature_name ?? null;
  const hasFeatures = (settings.data?.feature_names.length ?? 0) > 0;
  const pointsRequest = useMemo(
    () => ({
      data_level: dataLevel,
      predictions_id: predictionsId,
      feature_name: featureName ?? undefined,
      dimensionality_reduction_setting: settings.data?.dimensionality_reduction_setting,
      filter: filter ?? null,
      color_by: colorBy ?? null,
      // Row indices, float32 coordinates and colour codes: a million points in ~17 MB, no ids.
      format: 'binary' as const,
    }),
    [dataLevel, predictionsId, featureName, settings.data, filter, colorBy],
  );
  const points = useEmbeddingPoints(dataset.id, pointsRequest, hasFeatures && featureName !== null);

  const [mouseMode, setMouseMode] = useState<MouseMode>('panZoom');
  const [pointSize, setPointSize] = useState<number>(POINT_SIZE.default);
  const [distance, setDistance] = useState(1);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [contextLost, setContextLost] = useState(false);
  const [handle, setHandle] = useState<ScatterHandle | null>(null);
  const shift = useShiftKey();

  const ready = points.data?.status === 'ready' ? points.data : undefined;
  const parsed = useMemo(
    () => (ready?.binary ? decodeBinaryPoints(ready.binary, ready.legend?.type ?? null) : null),
    [ready],
  );

  // Points overlap: a translucent grey would darken where they pile up, so flatten it first.
  const missingColor = useMemo(() => {
    const [r, g, b] = opaqueOver(token.colorTextQuaternary, token.colorBgContainer);
    return `rgb(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)})`;
  }, [token.colorTextQuaternary, token.colorBgContainer]);
  const scheme = useMemo(
    () =>
      buildColorScheme(ready?.legend ?? null, {
        neutral: token.colorPrimary,
        missing: missingColor,
      }),
    [ready?.legend, token.colorPrimary, missingColor],
  );
  const colors = useMemo<ScatterColors>(
    () => ({
      background: token.colorBgContainer,
      palette: scheme.palette,
      active: token.colorWarning,
      hover: token.colorText,
      lasso: token.colorPrimary,
    }),
    [scheme, token.colorBgContainer, token.colorWarning, token.colorText, token.colorPrimary],
  );
  const scatterPoints = useMemo(
    () =>
      parsed ? { x: parsed.x, y: parsed.y, colorIndex: paletteIndices(parsed, scheme) } : null,
    [parsed, scheme],
  );
  // The grid's selected rows among the points; rows of another table version mean nothing here.
  const { selectedRows, tableVersion } = props;
  // The grid has seen newer data than these points (an upload in between): ask again.
  const stale = parsed !== null && tableVersion !== undefined && parsed.version < tableVersion;
  const { refetch } = points;
  useEffect(() => {
    if (stale) void refetch();
  }, [stale, refetch]);
  const selectedIndices = useMemo(() => {
    const out: number[] = [];
    if (!parsed || selectedRows.size === 0) return out;
    if (tableVersion !== undefined && tableVersion !== parsed.version) return out;
    const { rows } = parsed;
    for (let i = 0; i < rows.length; i++) if (selectedRows.has(rows[i]!)) out.push(i);
    return out;
  }, [selectedRows, tableVersion, parsed]);

  // Hover: the preview follows the pointer and appears once it rests on a point for 200 ms.
  const containerRef = useRef<HTMLDivElement>(null);
  const pointer = useRef({ x: 0, y: 0 });
  const [hovered, setHovered] = useState<{
    row: number;
    version: number;
    x: number;
    y: number;
    width: number;
    height: number;
  } | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hoverTimer.current), []);
  const { onSelectionChange, onOpenItem } = props;
  const onHover = useCallback(
    (index: number | null) => {
      clearTimeout(hoverTimer.current);
      const row = index === null ? undefined : parsed?.rows[index];
      if (!parsed || row === undefined) {
        setHovered(null);
        return;
      }
      const { version } = parsed;
      hoverTimer.current = setTimeout(() => {
        const rect = containerRef.current?.getBoundingClientRect();
        setHovered({
          row,
          version,
          ...pointer.current,
          width: rect?.width ?? 0,
          height: rect?.height ?? 0,
        });
      }, HOVER_DEBOUNCE_MS);
    },
    [parsed],
  );
  const onLasso = useCallback(
    (indices: number[]) => {
      if (!parsed) return;
      onSelectionChange(
        indices.map((i) => parsed.rows[i]!),
        parsed.version,
      );
    },
    [parsed, onSelectionChange],
  );
  const onPointClick = useCallback(
    (index: number) => {
      const row = parsed?.rows[index];
      if (parsed && row !== undefined) onOpenItem(row, parsed.version);
    },
    [parsed, onOpenItem],
  );
  const onDeselect = useCallback(
    () => onSelectionChange([], parsed?.version ?? tableVersion ?? 0),
    [onSelectionChange, parsed, tableVersion],
  );

  const selectedList = useMemo(
    () => (parsed ? selectedIndices.map((i) => parsed.rows[i]!) : []),
    [selectedIndices, parsed],
  );
  const numPoints = parsed ? parsed.rows.length : null;

  let body: React.ReactNode;
  if (settings.isPending || (points.isPending && hasFeatures && featureName !== null)) {
    body = (
      <Centered>
        <Spin />
      </Centered>
    );
  } else if (settings.isError) {
    body = (
      <Centered>
        <Result
          status="error"
          title={strings.loadFailed}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void settings.refetch()}>
              {commonStrings.retry}
            </Button>
          }
        />
      </Centered>
    );
  } else if (!hasFeatures) {
    body = (
      <Centered>
        <Result status="info" title={strings.noFeaturesTitle} subTitle={strings.noFeaturesText} />
      </Centered>
    );
  } else if (
    points.data?.status === 'failed' ||
    featureName === null ||
    (points.error instanceof ApiError && points.error.status === 424)
  ) {
    // A failed dependency (424) is the computation failing, not the page.
    body = (
      <Centered>
        <Result
          status="warning"
          title={strings.failedTitle}
          subTitle={strings.failedSuggestion}
          extra={
            <Button type="primary" onClick={() => setSettingsOpen(true)}>
              {strings.settings}
            </Button>
          }
        />
      </Centered>
    );
  } else if (points.isError) {
    body = (
      <Centered>
        <Result
          status="error"
          title={strings.loadFailed}
          extra={
            <Button icon={<ReloadOutlined />} onClick={() => void points.refetch()}>
              {commonStrings.retry}
            </Button>
          }
        />
      </Centered>
    );
  } else if (points.data?.status === 'computing') {
    const progress = points.data.progress;
    body = (
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
  } else if (contextLost) {
    body = (
      <Centered>
        <Result
          status="error"
          title={strings.webglLostTitle}
          subTitle={
            <span style={{ maxWidth: 560, display: 'inline-block' }}>{strings.webglLostText}</span>
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
  } else if (scatterPoints) {
    body = (
      <>
        <ScatterCanvas
          points={scatterPoints}
          colors={colors}
          pointSize={pointSize}
          mouseMode={mouseMode}
          lassoKey={shift}
          selectedIndices={selectedIndices}
          onReady={setHandle}
          onContextLost={() => setContextLost(true)}
          onHover={onHover}
          onLasso={onLasso}
          onPointClick={onPointClick}
          onDeselect={onDeselect}
          onView={setDistance}
        />
        {scatterPoints.x.length === 0 && (
          <Centered>
            <Typography.Text type="secondary">{strings.noPoints}</Typography.Text>
          </Centered>
        )}
        <Legend scheme={scheme} missingColor={missingColor} />
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
            datasetId={dataset.id}
            dataLevel={dataLevel}
            predictionsId={predictionsId}
            row={hovered.row}
            version={hovered.version}
            x={hovered.x}
            y={hovered.y}
            width={hovered.width}
            height={hovered.height}
          />
        )}
        {selectedList.length > 0 && (
          <SelectionStrip
            datasetId={dataset.id}
            dataLevel={dataLevel}
            predictionsId={predictionsId}
            selectedRows={selectedList}
            version={parsed!.version}
            onOpenItem={(row) => onOpenItem(row, parsed!.version)}
            onClear={onDeselect}
          />
        )}
      </>
    );
  }

  const mapReady = Boolean(scatterPoints && handle && !contextLost);
  return (
    <Flex
      vertical
      data-testid="embeddings-view"
      style={{ height: '100%', minHeight: 320, background: token.colorBgContainer }}
    >
      <EmbeddingsToolbar
        mouseMode={mouseMode}
        onMouseModeChange={setMouseMode}
        canZoomIn={canZoomIn(distance)}
        canZoomOut={canZoomOut(distance)}
        onZoom={(direction) => handle?.zoomTo(zoomedDistance(handle.distance(), direction))}
        onReset={() => handle?.resetView()}
        pointSize={pointSize}
        onPointSizeChange={setPointSize}
        numPoints={numPoints}
        onOpenSettings={() => setSettingsOpen(true)}
        mapReady={mapReady}
      />
      <div
        ref={containerRef}
        onMouseMove={(event) => {
          const rect = event.currentTarget.getBoundingClientRect();
          pointer.current = { x: event.clientX - rect.left, y: event.clientY - rect.top };
        }}
        onMouseLeave={() => onHover(null)}
        style={{
          position: 'relative',
          flex: 1,
          overflow: 'hidden',
          borderTop: `1px solid ${token.colorBorderSecondary}`,
        }}
      >
        {body}
      </div>
      {settingsOpen && settings.data && (
        <EmbeddingsSettingsDialog
          datasetId={dataset.id}
          dataLevel={dataLevel}
          predictionsId={predictionsId}
          settings={settings.data}
          numPoints={numPoints ?? dataset.samples_count ?? 0}
          onClose={() => setSettingsOpen(false)}
        />
      )}
    </Flex>
  );
}
