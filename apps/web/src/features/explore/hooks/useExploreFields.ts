// The level's metadata fields as the explorer uses them: by id, the cards' fields, the card
// config list, and the colouring (field and scale) when the chosen field can colour.
import type { MetadataFieldInfo } from '@loupe/contracts';
import { useMemo } from 'react';
import { cardConfigFieldsFor, cardFieldsFor } from '../cardFields';
import { colorAvailability, colorScale } from '../colorRules';
import { colorMessages } from '../toolbar/ColorControl';

const NO_FIELDS: MetadataFieldInfo[] = [];

export function useExploreFields(
  metadataFields: MetadataFieldInfo[] | undefined,
  cardToggles: string[],
  colorById: string | null,
  classColors: Record<string, string>,
) {
  const fields = metadataFields ?? NO_FIELDS;
  const fieldById = useMemo(() => new Map(fields.map((field) => [field.id, field])), [fields]);
  const cardFields = useMemo(() => cardFieldsFor(cardToggles, fieldById), [cardToggles, fieldById]);
  const cardConfigFields = useMemo(
    () => cardConfigFieldsFor(fields, fieldById),
    [fields, fieldById],
  );

  const colorField = colorById ? fieldById.get(colorById) : undefined;
  const colorBy = useMemo(() => {
    if (!colorField) return null;
    const { kind } = colorAvailability(colorField, colorMessages());
    return kind ? { field: colorField, scale: colorScale(colorField, kind, classColors) } : null;
    // classColors is a new object until the colour map arrives; its content is what matters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [colorField, JSON.stringify(classColors)]);

  return { fields, cardFields, cardConfigFields, colorBy };
}
