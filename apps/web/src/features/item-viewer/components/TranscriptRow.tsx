// Reference and predicted transcripts aligned word by word, each column marked with its word
// error type: I (insertion), D (deletion), S (substitution), - (correct).
import { Flex, Tag, Tooltip, Typography, theme } from 'antd';
import { useMemo } from 'react';
import { alignTranscripts, WORD_ERROR_NAMES } from '../lib/transcript';
import { viewerStrings as strings } from '../strings';

export function TranscriptRow({
  reference,
  hypothesis,
}: {
  reference: string | null;
  hypothesis: string | null;
}) {
  const { token } = theme.useToken();
  const view = useMemo(
    () =>
      reference !== null && hypothesis !== null ? alignTranscripts(reference, hypothesis) : null,
    [reference, hypothesis],
  );
  if (!view) {
    return (
      <Flex vertical gap={4}>
        {reference !== null && (
          <Typography.Text>
            <Typography.Text type="secondary">{strings.transcript}: </Typography.Text>
            {reference}
          </Typography.Text>
        )}
        {hypothesis !== null && (
          <Typography.Text>
            <Typography.Text type="secondary">{strings.predictedTranscript}: </Typography.Text>
            {hypothesis}
          </Typography.Text>
        )}
      </Flex>
    );
  }
  const colour = {
    '-': token.colorTextTertiary,
    S: token.colorWarning,
    D: token.colorError,
    I: token.colorInfo,
  } as const;
  return (
    <Flex vertical gap={6} data-testid="transcript-alignment">
      <Flex gap={8} align="baseline">
        <Typography.Text strong>{strings.wordErrors}</Typography.Text>
        <Tag>{strings.wer(view.wer)}</Tag>
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {strings.werLegend}
        </Typography.Text>
      </Flex>
      <Flex gap={0} wrap="wrap" style={{ rowGap: 8 }}>
        <Flex vertical style={{ paddingRight: 12 }}>
          <Typography.Text type="secondary">{strings.transcript}</Typography.Text>
          <Typography.Text type="secondary">{strings.predictedTranscript}</Typography.Text>
          <Typography.Text type="secondary">&nbsp;</Typography.Text>
        </Flex>
        {view.columns.map((column, i) => (
          <Tooltip key={i} title={WORD_ERROR_NAMES[column.type]}>
            <Flex
              vertical
              align="center"
              data-testid="word-column"
              data-type={column.type}
              style={{
                padding: '0 6px',
                borderRadius: token.borderRadiusSM,
                background: column.type === '-' ? undefined : token.colorFillTertiary,
              }}
            >
              <Typography.Text delete={column.type === 'D'}>{column.ref ?? '·'}</Typography.Text>
              <Typography.Text
                style={{ color: column.type === '-' ? undefined : colour[column.type] }}
              >
                {column.hyp ?? '·'}
              </Typography.Text>
              <Typography.Text
                data-testid="word-error-type"
                style={{
                  color: colour[column.type],
                  fontWeight: 600,
                  fontFamily: token.fontFamilyCode,
                }}
              >
                {column.type}
              </Typography.Text>
            </Flex>
          </Tooltip>
        ))}
      </Flex>
    </Flex>
  );
}
