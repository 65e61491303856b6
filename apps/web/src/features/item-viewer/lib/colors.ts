// Class colours for boxes and masks: the dataset's colour map where it names the label, else the
// shared categorical palette by class index (so the viewer matches the grid and the server).
import { categoricalColor } from '@loupe/contracts';

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
  // A label outside the class list still gets a stable colour.
  return categoricalColor(index >= 0 ? index : hash(label) % 1024);
}
