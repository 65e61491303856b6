// The time axis under the audio viewer's waveform and spectrogram: laid out in the scrolled strip's
// own coordinates (so it scrolls with it), with ticks only for the window in view.
import { theme } from 'antd';
import { formatTimeTick, timeTicks } from '../lib/audioAxes';
import { viewerStrings as strings } from '../strings';

export const TIME_AXIS_HEIGHT = 24;
/** Labels this close to either end of the strip are aligned to it instead of centred. */
const EDGE = 24;

export function TimeAxis({
  duration,
  pxPerSecond,
  scrollLeft,
  viewWidth,
}: {
  duration: number;
  pxPerSecond: number;
  scrollLeft: number;
  viewWidth: number;
}) {
  const { token } = theme.useToken();
  const contentWidth = duration * pxPerSecond;
  // A quarter of the view beyond either edge, so a label scrolling in is already there.
  const margin = viewWidth / 4;
  const from = Math.max(0, (scrollLeft - margin) / pxPerSecond);
  const to = Math.min(duration, (scrollLeft + viewWidth + margin) / pxPerSecond);
  const { step, ticks } =
    pxPerSecond > 0 ? timeTicks(from, to, pxPerSecond) : { step: 1, ticks: [] };
  return (
    <div
      role="img"
      aria-label={strings.timeAxis}
      data-testid="time-axis"
      style={{
        position: 'relative',
        height: TIME_AXIS_HEIGHT,
        flexShrink: 0,
        borderTop: `1px solid ${token.colorBorder}`,
        overflow: 'hidden',
      }}
    >
      {ticks.map((t) => {
        const x = Math.min(t * pxPerSecond, contentWidth - 1);
        const shift = x < EDGE ? '0' : x > contentWidth - EDGE ? '-100%' : '-50%';
        return (
          <div key={t} style={{ position: 'absolute', left: x, top: 0, bottom: 0 }}>
            <div style={{ width: 1, height: 5, background: token.colorTextTertiary }} />
            <span
              data-testid="time-tick"
              style={{
                position: 'absolute',
                top: 5,
                left: 0,
                transform: `translateX(${shift})`,
                whiteSpace: 'nowrap',
                fontSize: token.fontSizeSM,
                lineHeight: `${TIME_AXIS_HEIGHT - 6}px`,
                color: token.colorTextSecondary,
                fontVariantNumeric: 'tabular-nums',
              }}
            >
              {formatTimeTick(t, step)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
