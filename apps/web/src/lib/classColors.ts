// Class colours for boxes and masks: the shared rule of the contracts (the dataset's colour map
// where it names the label, else the class's place in the class list, else a colour hashed from
// the label), so a class looks the same in the viewer, the grid, the map and their legends.
import { classColor } from '@loupe/contracts';

export function labelColor(
  label: string,
  colorMap: Record<string, string> | undefined,
  classNames: readonly string[],
): string {
  return classColor(label, { color_map: colorMap, class_names: classNames });
}
