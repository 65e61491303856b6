// `loupe export`: a subset, or the items listed in a file, downloaded as a COCO or CSV folder
// (docs/formats.md, "Exporting") and unpacked into an empty folder.
import { DataLevel, ExportFormat } from '@loupe/contracts';
import { LoupeError } from '../client/errors.js';
import { OutputNotEmpty, type ExportResult } from '../client/export.js';
import { parseOptions, required, type Command } from './command.js';
import { CONNECTION_OPTIONS, CONNECTION_USAGE, connect } from './connection.js';
import { CliError } from './errors.js';
import { readText } from './io.js';

const usage = `Usage: loupe export --dataset NAME --format coco|csv --out FOLDER
         (--subset NAME | --items-file FILE --data-level LEVEL) [--predictions MODEL] [--name NAME]

Downloads a subset (by name or id), or the items whose ids FILE lists (one per line, or a JSON
array), as a folder in the COCO or CSV layout and unpacks it into FOLDER, which must be empty or
new. What it holds is what \`loupe import\` reads back (see docs/formats.md, "Exporting").

  --format coco|csv     COCO: object_detection and instance_segmentation; CSV: every task
  --predictions MODEL   also export this prediction set (a model's name or id)
  --data-level LEVEL    the level of the ids in --items-file: image, image_object or audio
  --name NAME           names the archive of --items-file (default 'selection')

${CONNECTION_USAGE}
`;

/** Ids from a file: a JSON array, or one id per line (blank lines skipped). */
function idsOf(text: string, file: string): string[] {
  const trimmed = text.trim();
  if (trimmed.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch (error) {
      throw new CliError(`${file}: not a valid JSON array (${(error as Error).message})`);
    }
    if (!Array.isArray(parsed) || !parsed.every((id) => typeof id === 'string'))
      throw new CliError(`${file}: the JSON array must hold item ids (strings)`);
    return parsed as string[];
  }
  return text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'download a subset or chosen items as a COCO or CSV folder',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        ...CONNECTION_OPTIONS,
        dataset: { type: 'string' },
        subset: { type: 'string' },
        'items-file': { type: 'string' },
        'data-level': { type: 'string' },
        format: { type: 'string' },
        out: { type: 'string' },
        predictions: { type: 'string' },
        name: { type: 'string' },
      },
      usage,
    );
    const datasetName = required(values, 'dataset', usage);
    const out = required(values, 'out', usage);
    const format = ExportFormat.safeParse(required(values, 'format', usage));
    if (!format.success) throw new CliError(`--format must be coco or csv\n\n${usage}`);
    const subset = values.subset as string | undefined;
    const itemsFile = values['items-file'] as string | undefined;
    if ((subset === undefined) === (itemsFile === undefined))
      throw new CliError(`give either --subset or --items-file\n\n${usage}`);
    let level: DataLevel | undefined;
    let ids: string[] = [];
    if (itemsFile !== undefined) {
      const parsed = DataLevel.safeParse(required(values, 'data-level', usage));
      if (!parsed.success)
        throw new CliError(
          `--data-level must be one of ${DataLevel.options.join(', ')}\n\n${usage}`,
        );
      level = parsed.data;
      ids = idsOf(await readText(io, itemsFile), itemsFile);
      if (ids.length === 0) throw new CliError(`${itemsFile}: no item ids`);
    }
    const client = connect(values);
    let result: ExportResult;
    try {
      const dataset = await client.dataset(datasetName).catch((error: Error) => {
        if (error instanceof LoupeError) throw error;
        throw new CliError(error.message, 1);
      });
      const predictions = values.predictions as string | undefined;
      const common = { format: format.data, out, ...(predictions ? { predictions } : {}) };
      result =
        subset !== undefined
          ? await dataset.exportSubset(subset, common)
          : await dataset.exportItems(ids, {
              ...common,
              dataLevel: level!,
              ...(values.name ? { name: values.name as string } : {}),
            });
    } catch (error) {
      if (error instanceof OutputNotEmpty)
        throw new CliError(`--out ${out} is not empty: export into an empty or new folder`, 1);
      if (error instanceof LoupeError) throw new CliError(error.message, 1);
      throw error;
    }
    io.stdout(`${JSON.stringify({ dataset: datasetName, format: format.data, ...result })}\n`);
    return 0;
  },
};
