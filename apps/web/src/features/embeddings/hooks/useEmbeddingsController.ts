// Everything the embeddings map knows and does, so EmbeddingsView is layout: its data (settings
// and points), colours, the camera and pointer controls, the selection and hover, the settings
// dialog, WebGL loss, and which state the map area shows.
import { useCallback, useMemo, useState } from 'react';
import type { EmbeddingsViewProps } from '../EmbeddingsView';
import { canZoomIn, canZoomOut, zoomedDistance, type ZoomDirection } from '../camera';
import { POINT_SIZE } from '../EmbeddingsToolbar';
import { mapStatus } from '../mapStatus';
import { paletteIndices } from '../points';
import type { MouseMode, ScatterHandle } from '../scatter/createScatter';
import { useHoverPoint } from './useHoverPoint';
import { useMapColors } from './useMapColors';
import { useMapPoints } from './useMapPoints';
import { useMapSelection } from './useMapSelection';
import { useShiftKey } from './useShiftKey';

export function useEmbeddingsController(props: EmbeddingsViewProps) {
  const { dataset, dataLevel, predictionsId, filter, subsetId, colorBy, tableVersion, onOpenItem } =
    props;
  const data = useMapPoints({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    comparison: props.compared?.request,
    filter,
    subsetId,
    colorBy,
    tableVersion,
  });
  const { settings, points, ready, parsed } = data;
  const { missingColor, scheme, colors } = useMapColors(ready?.legend ?? null);
  const scatterPoints = useMemo(
    () =>
      parsed ? { x: parsed.x, y: parsed.y, colorIndex: paletteIndices(parsed, scheme) } : null,
    [parsed, scheme],
  );
  const selection = useMapSelection({
    parsed,
    selectedRows: props.selectedRows,
    tableVersion,
    onSelectionChange: props.onSelectionChange,
  });
  const hover = useHoverPoint(parsed);
  const onPointClick = useCallback(
    (index: number) => {
      const row = parsed?.rows[index];
      if (parsed && row !== undefined) onOpenItem(row, parsed.version);
    },
    [parsed, onOpenItem],
  );

  const [mouseMode, setMouseMode] = useState<MouseMode>('panZoom');
  const [pointSize, setPointSize] = useState<number>(POINT_SIZE.default);
  const [distance, setDistance] = useState(1);
  const [handle, setHandle] = useState<ScatterHandle | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [contextLost, setContextLost] = useState(false);
  const shift = useShiftKey();

  const status = mapStatus({
    settingsPending: settings.isPending,
    settingsFailed: settings.isError,
    hasFeatures: data.hasFeatures,
    featureName: data.featureName,
    pointsPending: points.isPending,
    pointsFailed: points.isError,
    pointsError: points.error,
    pointsStatus: points.data?.status,
    contextLost,
    hasPoints: scatterPoints !== null,
  });

  return {
    status,
    settings,
    points,
    ready,
    parsed,
    scatterPoints,
    numPoints: parsed ? parsed.rows.length : null,
    missingColor,
    scheme,
    colors,
    ...selection,
    ...hover,
    onPointClick,
    mouseMode,
    setMouseMode,
    pointSize,
    setPointSize,
    /** Shift held: the next drag draws a lasso. */
    lassoKey: shift,
    canZoomIn: canZoomIn(distance),
    canZoomOut: canZoomOut(distance),
    zoom: (direction: ZoomDirection) =>
      handle?.zoomTo(zoomedDistance(handle.distance(), direction)),
    resetView: () => handle?.resetView(),
    setDistance,
    setHandle,
    mapReady: Boolean(scatterPoints && handle && !contextLost),
    onContextLost: () => setContextLost(true),
    settingsOpen,
    openSettings: () => setSettingsOpen(true),
    closeSettings: () => setSettingsOpen(false),
  };
}

export type EmbeddingsController = ReturnType<typeof useEmbeddingsController>;
