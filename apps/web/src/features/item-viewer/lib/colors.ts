// Class colours for boxes and masks: the dataset's colour map where it names the label, else a
// golden-angle hue per class index (so neighbouring classes differ), else per label hash.

export function goldenAngleColor(index: number): string {
  const hue = (index * 137.508) % 360;
  return `hsl(${hue.toFixed(1)}, 70%, 50%)`;
}

function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i++) h = (h * 31 + text.charCodeAt(i)) | 0;
  return Math.abs(h);
}

export function labelColor(
  label: string,
  colorMap: Record<string, string> | undefined,
  classNames: readonly string[],
): string {
  const mapped = colorMap?.[label];
  if (mapped) return mapped;
  const index = classNames.indexOf(label);
  return goldenAngleColor(index >= 0 ? index : hash(label));
}
