// The embeddings map (dataset-side.md §2, §4, §9): fetches its settings and points, polls while
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
import { parsePoints } from './points';
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
  selectedIds: ReadonlySet<string>;
  onSelectionChange(ids: string[]): void;
  onOpenItem(id: string): void;
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
  const parsed = useMemo(() => (ready ? parsePoints(ready.points ?? []) : null), [ready]);
  const indexById = useMemo(
    () => new Map(parsed?.ids.map((id, index) => [id, index]) ?? []),
    [parsed],
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
  const scatterPoints = useMemo(() => {
    if (!parsed) return null;
    const colorIndex = new Float32Array(parsed.ids.length);
    parsed.colorKeys.forEach((key, i) => {
      colorIndex[i] = scheme.indexOf(key);
    });
    return { x: parsed.x, y: parsed.y, colorIndex };
  }, [parsed, scheme]);
  const selectedIndices = useMemo(() => {
    const out: number[] = [];
    for (const id of props.selectedIds) {
      const index = indexById.get(id);
      if (index !== undefined) out.push(index);
    }
    return out;
  }, [props.selectedIds, indexById]);

  // Hover: the preview follows the pointer and appears once it rests on a point for 200 ms.
  const containerRef = useRef<HTMLDivElement>(null);
  const pointer = useRef({ x: 0, y: 0 });
  const [hovered, setHovered] = useState<{
    id: string;
    x: number;
    y: number;
    width: number;
    height: number;
  } | null>(null);
  const hoverTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(hoverTimer.current), []);
  const { onSelectionChange, onOpenItem } = props;
  const ids = parsed?.ids;
  const onHover = useCallback(
    (index: number | null) => {
      clearTimeout(hoverTimer.current);
      if (index === null || !ids?.[index]) {
        setHovered(null);
        return;
      }
      const id = ids[index];
      hoverTimer.current = setTimeout(() => {
        const rect = containerRef.current?.getBoundingClientRect();
        setHovered({ id, ...pointer.current, width: rect?.width ?? 0, height: rect?.height ?? 0 });
      }, HOVER_DEBOUNCE_MS);
    },
    [ids],
  );
  const onLasso = useCallback(
    (indices: number[]) =>
      onSelectionChange(indices.map((i) => ids?.[i]).filter((id) => id !== undefined)),
    [ids, onSelectionChange],
  );
  const onPointClick = useCallback(
    (index: number) => {
      const id = ids?.[index];
      if (id !== undefined) onOpenItem(id);
    },
    [ids, onOpenItem],
  );
  const onDeselect = useCallback(() => onSelectionChange([]), [onSelectionChange]);

  const selectedList = useMemo(
    () => [...props.selectedIds].filter((id) => indexById.has(id)),
    [props.selectedIds, indexById],
  );
  const numPoints = parsed ? parsed.ids.length : null;

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
            itemId={hovered.id}
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
            selectedIds={selectedList}
            onOpenItem={onOpenItem}
            onClear={() => onSelectionChange([])}
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
