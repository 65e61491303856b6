// The audio variant: a waveform we draw from the decoded audio (Web Audio) above the server's
// spectrogram image, both scrolled together at the chosen visible duration over a time axis, a
// frequency axis beside the spectrogram; play/pause on the HTML audio element (Space), click to
// seek; the transcript alignment below (in a comparison of two models, model A's and then model
// B's, each with its word errors). The spectrogram takes the height the rest leaves.
import { PauseCircleOutlined, PlayCircleOutlined } from '@ant-design/icons';
import type { ExploreItem } from '@loupe/contracts';
import { Button, Empty, Flex, Slider, Tooltip, Typography, theme } from 'antd';
import { useEffect, useRef, useState, type RefObject } from 'react';
import { ComparedSwatch } from '../../../components/ComparedPredictions';
import { comparedSides, type ComparedModels } from '../../../lib/comparedModels';
import { useElementSize } from '../hooks/useElementSize';
import { spectrogramBand } from '../lib/audioAxes';
import {
  clipDurationBounds,
  peaksForWindow,
  shownDuration,
  visibleDurationBounds,
  VISIBLE_DURATION_STEP,
} from '../lib/audioRange';
import { viewerStrings as strings } from '../strings';
import { FrequencyAxis } from './FrequencyAxis';
import { TIME_AXIS_HEIGHT, TimeAxis } from './TimeAxis';
import { TranscriptRow } from './TranscriptRow';

const WAVEFORM_HEIGHT = 96;
/** The spectrogram grows into the free height between these (its image has 256 rows). */
const SPECTROGRAM_MIN_HEIGHT = 160;
const SPECTROGRAM_MAX_HEIGHT = 512;
/** Room for a horizontal scrollbar under the time axis when the clip is wider than the view. */
const SCROLLBAR_ALLOWANCE = 16;

interface Decoded {
  samples: Float32Array;
  sampleRate: number;
  duration: number;
}

/** Decodes the clip to mono samples; null where the browser cannot (no Web Audio, bad file). */
function useDecodedAudio(src: string | null): Decoded | null {
  const [decoded, setDecoded] = useState<Decoded | null>(null);
  useEffect(() => {
    setDecoded(null);
    const AudioContextClass =
      typeof window.OfflineAudioContext === 'function' ? window.OfflineAudioContext : null;
    if (!src || !AudioContextClass) return;
    const controller = new AbortController();
    void (async () => {
      try {
        const response = await fetch(src, { signal: controller.signal });
        if (!response.ok) return;
        const bytes = await response.arrayBuffer();
        const context = new AudioContextClass(1, 1, 44_100);
        const buffer = await context.decodeAudioData(bytes);
        const samples = new Float32Array(buffer.length);
        for (let c = 0; c < buffer.numberOfChannels; c++) {
          const channel = buffer.getChannelData(c);
          for (let i = 0; i < channel.length; i++)
            samples[i]! += channel[i]! / buffer.numberOfChannels;
        }
        if (!controller.signal.aborted) {
          setDecoded({ samples, sampleRate: buffer.sampleRate, duration: buffer.duration });
        }
      } catch {
        // The spectrogram and the player still work without a waveform.
      }
    })();
    return () => controller.abort();
  }, [src]);
  return decoded;
}

export interface AudioViewProps {
  item: ExploreItem;
  durations: { min_duration?: number; max_duration?: number; default_duration?: number };
  /** Receives the play/pause toggle, so the viewer's Space key can call it. */
  toggleRef: RefObject<(() => void) | null>;
  /** The comparison of two models the explorer is in: both transcripts are aligned. */
  compared?: ComparedModels | null;
}

export function AudioView({ item, durations, toggleRef, compared = null }: AudioViewProps) {
  const { token } = theme.useToken();
  const audioRef = useRef<HTMLAudioElement>(null);
  const scrollRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const spectrogramRef = useRef<HTMLDivElement>(null);
  const size = useElementSize(scrollRef);
  const spectrogramSize = useElementSize(spectrogramRef);
  const datasetBounds = visibleDurationBounds(durations);
  const [chosen, setChosen] = useState(datasetBounds.initial);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [scrollLeft, setScrollLeft] = useState(0);
  const [mediaDuration, setMediaDuration] = useState<number | null>(null);
  const decoded = useDecodedAudio(item.src);
  const duration = item.duration ?? decoded?.duration ?? mediaDuration ?? 0;
  // Never a window longer than the clip: the readout names what is drawn.
  const bounds = clipDurationBounds(datasetBounds, duration);
  const visible = shownDuration(bounds, chosen);
  const band = spectrogramBand(item.metadata['audio.sample_rate']);
  const viewWidth = size.width;
  const contentWidth =
    duration > 0 ? Math.max(viewWidth, (viewWidth * duration) / visible) : viewWidth;
  const pxPerSecond = duration > 0 ? contentWidth / duration : 0;

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => setPlaying(false));
    else audio.pause();
  };
  useEffect(() => {
    toggleRef.current = toggle;
    return () => {
      toggleRef.current = null;
    };
  });

  // Follow the playhead smoothly while playing; keep it in view.
  useEffect(() => {
    if (!playing) return;
    let frame = 0;
    const tick = () => {
      const audio = audioRef.current;
      if (audio) {
        setTime(audio.currentTime);
        const scroller = scrollRef.current;
        if (scroller && pxPerSecond > 0) {
          const x = audio.currentTime * pxPerSecond;
          if (x < scroller.scrollLeft || x > scroller.scrollLeft + scroller.clientWidth - 16) {
            scroller.scrollLeft = Math.max(0, x - 16);
          }
        }
      }
      frame = requestAnimationFrame(tick);
    };
    frame = requestAnimationFrame(tick);
    return () => cancelAnimationFrame(frame);
  }, [playing, pxPerSecond]);

  // Draw the visible part of the waveform at one column per pixel.
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas || !decoded || viewWidth <= 0 || pxPerSecond <= 0) return;
    const ratio = window.devicePixelRatio || 1;
    canvas.width = Math.round(viewWidth * ratio);
    canvas.height = Math.round(WAVEFORM_HEIGHT * ratio);
    const context = canvas.getContext('2d');
    if (!context) return;
    const start = scrollLeft / pxPerSecond;
    const columns = canvas.width;
    const peaks = peaksForWindow(
      decoded.samples,
      decoded.sampleRate,
      start,
      start + viewWidth / pxPerSecond,
      columns,
    );
    context.clearRect(0, 0, canvas.width, canvas.height);
    const mid = canvas.height / 2;
    let max = 0;
    for (const v of peaks) max = Math.max(max, Math.abs(v));
    const gain = max > 0 ? (mid * 0.95) / max : 0;
    context.fillStyle = token.colorPrimary;
    for (let c = 0; c < columns; c++) {
      const lo = peaks[c * 2]! * gain;
      const hi = peaks[c * 2 + 1]! * gain;
      context.fillRect(c, mid - hi, 1, Math.max(1, hi - lo));
    }
  }, [decoded, viewWidth, pxPerSecond, scrollLeft, token.colorPrimary]);

  const seek = (clientX: number) => {
    const scroller = scrollRef.current;
    const audio = audioRef.current;
    if (!scroller || !audio || pxPerSecond <= 0) return;
    const x = clientX - scroller.getBoundingClientRect().left + scroller.scrollLeft;
    audio.currentTime = Math.min(duration, Math.max(0, x / pxPerSecond));
    setTime(audio.currentTime);
  };

  const spectrogram = item.spectrogram_src ?? item.thumbnail_src;
  const stripMin = WAVEFORM_HEIGHT + SPECTROGRAM_MIN_HEIGHT + TIME_AXIS_HEIGHT;
  const stripMax = stripMin - SPECTROGRAM_MIN_HEIGHT + SPECTROGRAM_MAX_HEIGHT + SCROLLBAR_ALLOWANCE;
  return (
    <Flex
      vertical
      gap={12}
      data-testid="audio-view"
      style={{ height: '100%', minHeight: 0, overflowY: 'auto' }}
    >
      <Flex gap={12} align="center" wrap="wrap">
        <Tooltip title={playing ? strings.pause : strings.play}>
          <Button
            type="primary"
            shape="circle"
            size="large"
            aria-label={playing ? strings.pause : strings.play}
            icon={playing ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
            onClick={toggle}
            disabled={!item.src}
          />
        </Tooltip>
        <Typography.Text style={{ fontVariantNumeric: 'tabular-nums' }} data-testid="audio-time">
          {time.toFixed(2)} / {duration.toFixed(2)} s
        </Typography.Text>
        <Flex gap={8} align="center" style={{ marginLeft: 'auto' }}>
          <Typography.Text type="secondary">{strings.visibleDuration}</Typography.Text>
          <Slider
            ariaLabelForHandle={strings.visibleDuration}
            min={bounds.min}
            max={bounds.max}
            step={VISIBLE_DURATION_STEP}
            value={visible}
            onChange={setChosen}
            style={{ width: 200 }}
            tooltip={{ formatter: (value) => strings.seconds(value ?? 0) }}
          />
          <Typography.Text
            data-testid="visible-duration"
            style={{ width: 56, fontVariantNumeric: 'tabular-nums' }}
          >
            {strings.seconds(visible)}
          </Typography.Text>
        </Flex>
      </Flex>
      {item.src ? (
        <audio
          ref={audioRef}
          src={item.src}
          preload="metadata"
          data-testid="viewer-audio"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
          onLoadedMetadata={(event) =>
            Number.isFinite(event.currentTarget.duration) &&
            setMediaDuration(event.currentTarget.duration)
          }
        />
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={strings.noAudio} />
      )}
      <Flex
        style={{
          flex: spectrogram ? '1 1 auto' : 'none',
          minHeight: spectrogram ? stripMin : undefined,
          maxHeight: spectrogram ? stripMax : undefined,
        }}
      >
        {spectrogram && band && spectrogramSize.height > 0 && (
          <FrequencyAxis band={band} height={spectrogramSize.height} top={WAVEFORM_HEIGHT} />
        )}
        <div
          ref={scrollRef}
          data-testid="audio-scroll"
          onScroll={(event) => setScrollLeft(event.currentTarget.scrollLeft)}
          onClick={(event) => seek(event.clientX)}
          style={{
            flex: 1,
            minWidth: 0,
            overflowX: 'auto',
            overflowY: 'hidden',
            cursor: 'text',
            background: token.colorFillQuaternary,
            borderRadius: token.borderRadius,
          }}
        >
          <Flex
            vertical
            style={{ position: 'relative', width: contentWidth || '100%', height: '100%' }}
          >
            <div
              style={{
                position: 'sticky',
                left: 0,
                flexShrink: 0,
                width: viewWidth || '100%',
                height: WAVEFORM_HEIGHT,
              }}
            >
              <canvas
                ref={canvasRef}
                aria-label={strings.waveform}
                style={{ width: '100%', height: WAVEFORM_HEIGHT, display: 'block' }}
              />
            </div>
            {spectrogram && (
              <div ref={spectrogramRef} data-testid="spectrogram" style={{ flex: 1, minHeight: 0 }}>
                <img
                  src={spectrogram}
                  alt={strings.spectrogram}
                  draggable={false}
                  style={{ display: 'block', width: '100%', height: '100%', objectFit: 'fill' }}
                />
              </div>
            )}
            {pxPerSecond > 0 && (
              <TimeAxis
                duration={duration}
                pxPerSecond={pxPerSecond}
                scrollLeft={scrollLeft}
                viewWidth={viewWidth}
              />
            )}
            {pxPerSecond > 0 && (
              <div
                data-testid="playhead"
                style={{
                  position: 'absolute',
                  top: 0,
                  bottom: TIME_AXIS_HEIGHT,
                  left: time * pxPerSecond,
                  width: 2,
                  background: token.colorError,
                  pointerEvents: 'none',
                }}
              />
            )}
          </Flex>
        </div>
      </Flex>
      {compared ? (
        <Flex vertical gap={12} style={{ flexShrink: 0 }}>
          {comparedSides(item, compared).map((side) => (
            <Flex
              key={side.model.key}
              vertical
              gap={4}
              data-testid={`compared-transcript-${side.model.key}`}
            >
              <Flex gap={6} align="center">
                <ComparedSwatch color={side.model.color} />
                <Typography.Text strong>{strings.modelPrediction(side.model.key)}</Typography.Text>
                <Typography.Text type="secondary">{side.model.name}</Typography.Text>
              </Flex>
              <TranscriptRow
                reference={item.transcript}
                hypothesis={side.prediction?.transcript ?? null}
              />
            </Flex>
          ))}
        </Flex>
      ) : (
        <div style={{ flexShrink: 0 }}>
          <TranscriptRow
            reference={item.transcript}
            hypothesis={item.prediction?.transcript ?? null}
          />
        </div>
      )}
    </Flex>
  );
}
