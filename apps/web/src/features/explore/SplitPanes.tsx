// The split view's two panes with a draggable divider (docs/product.md, Datasets §2): the left pane keeps
// 33–66 percent of the width (splitRules.ts); a double click on the divider resets it to 50.
import { theme } from 'antd';
import { useRef, useState } from 'react';
import { SPLIT_DEFAULT, SPLIT_MAX, SPLIT_MIN, SPLIT_STEP, clampSplit, splitAt } from './splitRules';
import { exploreStrings as strings } from './strings';

const DIVIDER = 12;

export function SplitPanes({ left, right }: { left: React.ReactNode; right: React.ReactNode }) {
  const { token } = theme.useToken();
  const boxRef = useRef<HTMLDivElement>(null);
  const [share, setShare] = useState(SPLIT_DEFAULT);
  const [dragging, setDragging] = useState(false);

  const follow = (clientX: number) => {
    const rect = boxRef.current?.getBoundingClientRect();
    if (rect) setShare(splitAt(clientX, rect));
  };

  return (
    <div
      ref={boxRef}
      data-testid="explore-split"
      style={{
        display: 'flex',
        width: '100%',
        minWidth: 0,
        userSelect: dragging ? 'none' : undefined,
      }}
    >
      <div
        data-testid="split-left"
        style={{ width: `calc(${share}% - ${DIVIDER / 2}px)`, minWidth: 0, flex: 'none' }}
      >
        {left}
      </div>
      <div
        role="separator"
        aria-orientation="vertical"
        aria-label={strings.splitDivider}
        aria-valuemin={SPLIT_MIN}
        aria-valuemax={SPLIT_MAX}
        aria-valuenow={Math.round(share)}
        tabIndex={0}
        title={strings.splitDividerHint}
        onPointerDown={(event) => {
          event.preventDefault();
          event.currentTarget.setPointerCapture?.(event.pointerId);
          setDragging(true);
        }}
        onPointerMove={(event) => {
          if (dragging) follow(event.clientX);
        }}
        onPointerUp={(event) => {
          event.currentTarget.releasePointerCapture?.(event.pointerId);
          setDragging(false);
        }}
        onDoubleClick={() => setShare(SPLIT_DEFAULT)}
        onKeyDown={(event) => {
          if (event.key === 'ArrowLeft') setShare((s) => clampSplit(s - SPLIT_STEP));
          else if (event.key === 'ArrowRight') setShare((s) => clampSplit(s + SPLIT_STEP));
          else if (event.key === 'Home') setShare(SPLIT_DEFAULT);
          else return;
          event.preventDefault();
        }}
        style={{
          width: DIVIDER,
          flex: 'none',
          cursor: 'col-resize',
          display: 'flex',
          justifyContent: 'center',
          touchAction: 'none',
        }}
      >
        <div
          style={{
            width: dragging ? 3 : 1,
            height: '100%',
            background: dragging ? token.colorPrimary : token.colorBorderSecondary,
          }}
        />
      </div>
      <div data-testid="split-right" style={{ flex: 1, minWidth: 0 }}>
        {right}
      </div>
    </div>
  );
}
