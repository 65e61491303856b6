// The item viewer (docs/product.md, Datasets §2, §4): a near full-screen 'Item Details' modal over the
// explorer's current result, stepping through it with buttons, arrow keys and a filmstrip of
// neighbours; image, image-object and audio variants; the sidebar with sample, objects and
// metadata, the item's actions and the pending changes (docs/curation.md). The parent owns `?item=`
// in the URL; this calls onIndexChange and onClose. It lives inside a PendingChangesProvider. In a
// comparison of two models it draws both models' predictions (lib/comparedModels.ts).
import {
  LeftOutlined,
  MenuFoldOutlined,
  MenuUnfoldOutlined,
  RightOutlined,
} from '@ant-design/icons';
import { TASK_TRAITS, type DataLevel, type Dataset } from '@loupe/contracts';
import { useQuery } from '@tanstack/react-query';
import { App, Button, Flex, Modal, Result, Spin, Tooltip, Typography, theme } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, describeError } from '../../api/ApiError';
import { useLicense } from '../../api/hooks/useLicense';
import { colorMapQuery, metadataInfoQuery } from '../../api/queries/explore';
import { ComparedModelsLegend, ComparedPredictionTags } from '../../components/ComparedPredictions';
import {
  comparedSides,
  type ComparedModelKey,
  type ComparedModels,
} from '../../lib/comparedModels';
import { readStorage, writeStorage } from '../../lib/storage';
import {
  ItemActions,
  PendingChangesBox,
  describeChange,
  useConfirmLeave,
  usePendingChanges,
  type ActionItem,
  type ApplyResult,
} from '../curation';
import { AudioView } from './components/AudioView';
import { Filmstrip } from './components/Filmstrip';
import { ImageView, type ViewerAttribution } from './components/ImageView';
import { SIDEBAR_WIDTH, ViewerSidebar } from './components/ViewerSidebar';
import { useMoveAfterApply } from './hooks/useMoveAfterApply';
import { useViewerItems } from './hooks/useViewerItems';
import { labelColor } from '../../lib/classColors';
import { counterText } from './lib/viewerWindow';
import { viewerStrings as strings } from './strings';

export interface ItemViewerProps {
  dataset: Dataset;
  dataLevel: DataLevel;
  predictionsId?: string;
  /** The explorer's current result: row indices in result order. */
  rows: Uint32Array;
  version: number;
  /** Position of the open item in `rows`. */
  index: number;
  onIndexChange(index: number): void;
  onClose(): void;
  /** Metadata ids shown on grid cards: the sidebar's 'Card config' group. */
  cardConfigIds?: string[];
  /** The subset the explorer shows: the item can be moved out of it or removed from it. */
  subsetId?: string;
  /** The attribution whose heatmap is drawn over the image, and its opacity slider's handler. */
  attribution?: ViewerAttribution | null;
  /** The comparison of two models the explorer is in: both models' predictions are shown. */
  compared?: ComparedModels | null;
}

const SIDEBAR_COLLAPSED_KEY = 'loupe.itemViewer.sidebarCollapsed';
/** The viewer's modal wrapper, told apart from dialogs and menus opened over it. */
const VIEWER_WRAP_CLASS = 'loupe-item-viewer';

/** Keys in a dialog or a menu opened over the viewer (a chooser, a confirmation) are its own. */
function inOtherLayer(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  const wrap = target.closest('.ant-modal-wrap');
  if (wrap && !wrap.classList.contains(VIEWER_WRAP_CLASS)) return true;
  return target.closest('.ant-dropdown, .ant-popover, [role="menu"]') !== null;
}

/** Keys typed into a field or a slider belong to that control, not to the viewer. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  return (
    target.closest('input, textarea, select, [contenteditable="true"], [role="slider"]') !== null ||
    inOtherLayer(target)
  );
}

export function ItemViewer(props: ItemViewerProps) {
  const { dataset, dataLevel, predictionsId, rows, version, index, onIndexChange, onClose } = props;
  const { token } = theme.useToken();
  const { message } = App.useApp();
  const pending = usePendingChanges();
  const confirmLeave = useConfirmLeave();
  const licensed = useLicense().data?.state === 'LICENSED';
  // The queue as the viewer found it: closing asks about (and discards) only what was queued here.
  const [queuedBefore, setQueuedBefore] = useState(pending.changes);
  const total = rows.length;
  const compared = props.compared ?? null;
  const comparison = compared?.request;
  const items = useViewerItems({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    comparison,
    rows,
    version,
    index,
  });
  const colorMap = useQuery(colorMapQuery(dataset.id));
  const metadata = useQuery(metadataInfoQuery(dataset.id, dataLevel, predictionsId, comparison));

  const [turns, setTurns] = useState(0);
  const [overlaysVisible, setOverlaysVisible] = useState(true);
  // In a comparison, whose predicted label map is drawn: kept from item to item (null: the route
  // model's).
  const [maskModel, setMaskModel] = useState<ComparedModelKey | null>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [collapsed, setCollapsed] = useState(() => readStorage(SIDEBAR_COLLAPSED_KEY) === 'true');
  const toggleAudio = useRef<(() => void) | null>(null);

  const current = items.current;
  const currentId = current?.id;
  // A new item starts with every object visible and none selected (docs/product.md, Datasets §4).
  const [shownId, setShownId] = useState(currentId);
  if (shownId !== currentId) {
    setShownId(currentId);
    setHidden(new Set());
    setSelected(new Set());
  }
  useEffect(() => {
    if (currentId === undefined) return;
    window.dispatchEvent(
      new CustomEvent('loupe:viewer-item', { detail: { id: currentId, index } }),
    );
  }, [currentId, index]);

  const go = (position: number) => {
    if (position >= 0 && position < total && position !== index) onIndexChange(position);
  };
  const isAudio = current?.media_type === 'audio' || (!current && dataLevel === 'audio');
  const close = () => confirmLeave(onClose, { since: queuedBefore });
  const moveAfterApply = useMoveAfterApply({
    datasetId: dataset.id,
    dataLevel,
    predictionsId,
    comparison,
    rows,
    index,
    onIndexChange,
    onClose,
  });
  const onApplied = (result: ApplyResult) => {
    if (result.ok) setQueuedBefore([]);
    const candidates: string[] = [];
    for (let position = index; position <= items.window[1]; position++) {
      const id = items.itemAt(position)?.id;
      if (id !== undefined) candidates.push(id);
    }
    void moveAfterApply(result, candidates);
  };
  const actionItems: ActionItem[] = current
    ? [{ id: current.id, type: current.type, sampleId: current.sample_id }]
    : [];
  const actionContext = {
    taskType: dataset.task_type,
    dataLevel,
    items: actionItems,
    predictionsId,
    currentSubsetId: props.subsetId,
  };
  // x: the last action again, on this item (docs/curation.md).
  const repeatLastAction = () => {
    if (!current || !licensed || pending.applying) return;
    const action = pending.lastAction;
    if (!action) void message.info(strings.noLastAction);
    else if (pending.replayLast(actionContext)) {
      void message.success(strings.lastActionQueued(describeChange(action, 1)));
    } else void message.info(strings.lastActionNotAvailable);
  };
  // d: this item's pending changes (a sample's include its objects') are discarded.
  const discardCurrent = () => {
    if (!current || pending.applying) return;
    const touched = pending.discardItems([current.id], { samples: dataLevel !== 'image_object' });
    void message.info(touched > 0 ? strings.discardedForItem(touched) : strings.nothingToDiscard);
  };

  // The latest handlers for the one window listener.
  const keys = useRef<(event: KeyboardEvent) => void>(() => undefined);
  keys.current = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      if (inOtherLayer(event.target)) return;
      event.preventDefault();
      close();
      return;
    }
    if (
      event.defaultPrevented ||
      ownsKeys(event.target) ||
      event.altKey ||
      event.metaKey ||
      event.ctrlKey
    ) {
      return;
    }
    if (event.key === 'ArrowLeft') go(index - 1);
    else if (event.key === 'ArrowRight') go(index + 1);
    else if (event.key === 'b' || event.key === 'B') setOverlaysVisible((visible) => !visible);
    else if ((event.key === 'r' || event.key === 'R') && !isAudio) {
      setTurns((t) => t + (event.shiftKey ? -1 : 1));
    } else if (event.key === ' ' && isAudio) toggleAudio.current?.();
    else if (event.key === 'x' || event.key === 'X') repeatLastAction();
    else if (event.key === 'd' || event.key === 'D') discardCurrent();
    else return;
    event.preventDefault();
  };
  useEffect(() => {
    const listener = (event: KeyboardEvent) => keys.current(event);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const classNames = dataset.class_names;
  const colors = colorMap.data?.color_map;
  // Stable between renders: mask layers redraw when it changes.
  const colorOf = useCallback(
    (label: string) => labelColor(label, colors, classNames),
    [colors, classNames],
  );

  const toggleSidebar = () => {
    setCollapsed((value) => {
      writeStorage(SIDEBAR_COLLAPSED_KEY, String(!value));
      return !value;
    });
  };

  const selectObject = (id: string, toggle: boolean) =>
    setSelected((previous) => {
      if (!toggle) return previous.size === 1 && previous.has(id) ? new Set() : new Set([id]);
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const toggleVisible = (id: string) =>
    setHidden((previous) => {
      const next = new Set(previous);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const setGroupVisible = (ids: string[], visible: boolean) =>
    setHidden((previous) => {
      const next = new Set(previous);
      for (const id of ids) {
        if (visible) next.delete(id);
        else next.add(id);
      }
      return next;
    });

  let media: React.ReactNode;
  if (current) {
    media = isAudio ? (
      <AudioView
        key={current.id}
        item={current}
        durations={dataset}
        toggleRef={toggleAudio}
        compared={compared}
      />
    ) : (
      <ImageView
        key={current.id}
        item={current}
        variant={dataLevel === 'image_object' ? 'image-object' : 'image'}
        colorOf={colorOf}
        overlaysVisible={overlaysVisible}
        onToggleOverlays={() => setOverlaysVisible((visible) => !visible)}
        hidden={hidden}
        selected={selected}
        onObjectClick={selectObject}
        turns={turns}
        onRotate={(delta) => setTurns((t) => t + delta)}
        labelMap={dataset.label_map}
        attribution={props.attribution ?? null}
        compared={compared}
        maskModel={maskModel}
        onMaskModelChange={setMaskModel}
      />
    );
  } else if (items.currentError) {
    const stale = items.currentError instanceof ApiError && items.currentError.status === 409;
    media = (
      <Result
        status="warning"
        title={strings.failedToLoadSample}
        subTitle={stale ? strings.staleResult : describeError(items.currentError)}
        extra={<Button onClick={close}>{strings.close}</Button>}
      />
    );
  } else {
    media = (
      <Flex align="center" justify="center" style={{ height: '100%' }}>
        <Spin tip={strings.loading}>
          <div style={{ width: 120, height: 80 }} />
        </Spin>
      </Flex>
    );
  }

  const title = (
    <Flex align="center" gap={12} style={{ paddingRight: 32 }}>
      <Typography.Text strong style={{ fontSize: token.fontSizeLG }}>
        {strings.title}
      </Typography.Text>
      <Flex align="center" gap={4}>
        <Tooltip title={`${strings.previous} (←)`}>
          <Button
            size="small"
            aria-label={strings.previous}
            icon={<LeftOutlined />}
            disabled={index <= 0}
            onClick={() => go(index - 1)}
          />
        </Tooltip>
        <Typography.Text
          data-testid="viewer-counter"
          style={{ minWidth: 64, textAlign: 'center', fontVariantNumeric: 'tabular-nums' }}
        >
          {counterText(index, total)}
        </Typography.Text>
        <Tooltip title={`${strings.next} (→)`}>
          <Button
            size="small"
            aria-label={strings.next}
            icon={<RightOutlined />}
            disabled={index >= total - 1}
            onClick={() => go(index + 1)}
          />
        </Tooltip>
      </Flex>
      {current && (
        <Typography.Text type="secondary" ellipsis style={{ minWidth: 0, flex: 1 }}>
          {current.id}
        </Typography.Text>
      )}
      <Tooltip title={collapsed ? strings.showSidebar : strings.hideSidebar}>
        <Button
          size="small"
          type="text"
          aria-label={collapsed ? strings.showSidebar : strings.hideSidebar}
          aria-expanded={!collapsed}
          icon={collapsed ? <MenuFoldOutlined /> : <MenuUnfoldOutlined />}
          onClick={toggleSidebar}
          style={{ marginLeft: 'auto' }}
        />
      </Tooltip>
    </Flex>
  );

  return (
    <Modal
      open
      title={title}
      onCancel={close}
      keyboard={false}
      wrapClassName={VIEWER_WRAP_CLASS}
      footer={null}
      width="calc(100vw - 32px)"
      style={{ top: 16, paddingBottom: 0, maxWidth: 'none' }}
      styles={{ body: { height: 'calc(100vh - 104px)', overflow: 'hidden' } }}
      destroyOnHidden
    >
      <Flex
        gap={16}
        style={{ height: '100%' }}
        data-testid="item-viewer-body"
        data-item-id={currentId}
      >
        <Flex vertical style={{ flex: 1, minWidth: 0, minHeight: 0 }}>
          {compared && current && (
            <Flex
              gap={12}
              align="center"
              wrap="wrap"
              style={{ paddingBottom: 8 }}
              data-testid="viewer-compared"
            >
              <ComparedModelsLegend models={[compared.a, compared.b]} names />
              {/* An object item has no sample-level prediction of the other model: no tags. */}
              {dataLevel !== 'image_object' && (
                <ComparedPredictionTags sides={comparedSides(current, compared)} />
              )}
            </Flex>
          )}
          <div style={{ flex: 1, minHeight: 0 }}>{media}</div>
          <Filmstrip window={items.window} index={index} itemAt={items.itemAt} onPick={go} />
        </Flex>
        {!collapsed && current && (
          <aside
            aria-label={strings.showSidebar}
            data-testid="viewer-sidebar"
            style={{
              width: SIDEBAR_WIDTH,
              flexShrink: 0,
              overflowY: 'auto',
              borderLeft: `1px solid ${token.colorBorderSecondary}`,
              paddingLeft: 8,
            }}
          >
            <ViewerSidebar
              item={current}
              compared={compared}
              metadataFields={metadata.data?.metadata_config}
              metadataFailed={metadata.isError}
              cardConfigIds={props.cardConfigIds ?? []}
              showObjects={TASK_TRAITS[dataset.task_type].hasObjects}
              colorOf={colorOf}
              hidden={hidden}
              selected={selected}
              onToggleVisible={toggleVisible}
              onGroupVisible={setGroupVisible}
              onSelect={selectObject}
              actions={
                <Flex vertical gap={6}>
                  <ItemActions
                    datasetId={dataset.id}
                    taskType={dataset.task_type}
                    dataLevel={dataLevel}
                    items={actionItems}
                    predictionsId={predictionsId}
                    currentSubsetId={props.subsetId}
                    licensed={licensed}
                    mode="buttons"
                    dataset={dataset}
                  />
                  <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
                    {strings.curationKeys}
                  </Typography.Text>
                </Flex>
              }
              pendingChanges={<PendingChangesBox onApplied={onApplied} />}
              pendingCount={pending.changes.length}
            />
          </aside>
        )}
      </Flex>
    </Modal>
  );
}
