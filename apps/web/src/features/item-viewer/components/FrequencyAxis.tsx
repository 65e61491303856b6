// The frequency axis beside the audio viewer's spectrogram, on the spectrogram's own log scale
// (lowest frequency at the bottom, Nyquist at the top).
import { theme } from 'antd';
import { formatFrequency, logFrequencyTicks } from '../lib/audioAxes';
import { viewerStrings as strings } from '../strings';

export const FREQUENCY_AXIS_WIDTH = 60;
const LABEL_HEIGHT = 16;

export function FrequencyAxis({
  band,
  height,
  top,
}: {
  band: { low: number; high: number };
  /** The spectrogram's drawn height in px. */
  height: number;
  /** Distance from the strip's top to the spectrogram's top. */
  top: number;
}) {
  const { token } = theme.useToken();
  const ticks = logFrequencyTicks(band.low, band.high, height);
  return (
    <div
      role="img"
      aria-label={strings.frequencyAxis}
      data-testid="frequency-axis"
      style={{
        position: 'relative',
        flexShrink: 0,
        width: FREQUENCY_AXIS_WIDTH,
        height,
        marginTop: top,
        borderRight: `1px solid ${token.colorBorder}`,
      }}
    >
      {ticks.map(({ hz, position }) => {
        const y = position * height;
        const labelBottom = Math.min(height - LABEL_HEIGHT, Math.max(0, y - LABEL_HEIGHT / 2));
        return (
          <div key={hz}>
            <div
              style={{
                position: 'absolute',
                right: 0,
                bottom: Math.min(height - 1, y),
                width: 5,
                height: 1,
                background: token.colorTextTertiary,
              }}
            />
            <span
              data-testid="frequency-tick"
              style={{
                position: 'absolute',
                right: 8,
                bottom: labelBottom,
                whiteSpace: 'nowrap',
                fontSize: token.fontSizeSM,
                lineHeight: `${LABEL_HEIGHT}px`,
                color: token.colorTextSecondary,
                fontVariantNumeric: 'tabular-nums',
              }}
            >
              {formatFrequency(hz)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
