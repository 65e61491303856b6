// The two help panels of a distribution: 'How to read the plot?' and 'Where does the model
// improvement come from?', the latter with its five-bar legend (a histogram shape per reading).
import { QuestionCircleOutlined } from '@ant-design/icons';
import { Button, Flex, Popover, Typography, theme } from 'antd';
import { useModelColors } from '../hooks/useCategoryColors';
import { compareStrings as strings } from '../strings';

/** Bar heights of the legend's five little histograms, A side (left) first. */
const LEGEND_SHAPES: readonly (readonly number[])[] = [
  [3, 8, 5, 2, 0, 0, 0],
  [2, 6, 8, 4, 2, 1, 0],
  [0, 1, 4, 8, 4, 1, 0],
  [0, 1, 2, 4, 8, 6, 2],
  [0, 0, 0, 2, 5, 8, 3],
];

function LegendShape({ bars }: { bars: readonly number[] }) {
  const colors = useModelColors();
  const { token } = theme.useToken();
  const middle = Math.floor(bars.length / 2);
  return (
    <svg width={56} height={24} viewBox="0 0 56 24" aria-hidden>
      {bars.map((height, index) => (
        <rect
          key={index}
          x={index * 8}
          y={24 - height * 3}
          width={7}
          height={height * 3}
          fill={
            index === middle
              ? token.colorTextQuaternary
              : index < middle
                ? colors.model_a
                : colors.model_b
          }
        />
      ))}
    </svg>
  );
}

export function HelpPanels() {
  const howToRead = (
    <Flex vertical gap={6} style={{ maxWidth: 360 }}>
      {strings.howToReadText.map((text) => (
        <Typography.Text key={text}>{text}</Typography.Text>
      ))}
    </Flex>
  );
  const improvement = (
    <Flex vertical gap={8} style={{ maxWidth: 380 }}>
      <Typography.Text>{strings.improvementSourceText}</Typography.Text>
      <ul
        aria-label={strings.improvementSource}
        style={{ listStyle: 'none', margin: 0, padding: 0 }}
      >
        {strings.improvementLegend.map((text, index) => (
          <li key={text} style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 4 }}>
            <LegendShape bars={LEGEND_SHAPES[index]!} />
            <Typography.Text>{text}</Typography.Text>
          </li>
        ))}
      </ul>
    </Flex>
  );
  return (
    <Flex gap={4} wrap="wrap">
      <Popover trigger="click" title={strings.howToRead} content={howToRead}>
        <Button type="link" size="small" icon={<QuestionCircleOutlined />}>
          {strings.howToRead}
        </Button>
      </Popover>
      <Popover trigger="click" title={strings.improvementSource} content={improvement}>
        <Button type="link" size="small" icon={<QuestionCircleOutlined />}>
          {strings.improvementSource}
        </Button>
      </Popover>
    </Flex>
  );
}
