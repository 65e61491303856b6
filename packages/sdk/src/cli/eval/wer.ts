// `loupe eval wer`: word error rate and related measures from reference and hypothesis CSVs.
import { corpusWordErrors } from '@loupe/metrics';
import { parseOptions, required, type Command } from '../command.js';
import { columnIndex, parseCsv, rowsById } from '../csv.js';
import { CliError } from '../errors.js';
import { readText } from '../io.js';
import { printJson } from './output.js';

const usage = `Usage: loupe eval wer --references R.csv --hypotheses H.csv [options]

  --references FILE      CSV with columns id,transcript
  --hypotheses FILE      CSV with columns id,transcript
  --lowercase            lower-case both texts before comparing
  --remove-punctuation   remove Unicode punctuation before comparing
  --alignment            include each utterance's word alignment (types -, S, D, I)
By default texts are only whitespace-collapsed and trimmed, as jiwer's default. Corpus measures
come from total counts (total errors / total reference words).
`;

export const werEval: Command = {
  name: 'wer',
  summary: 'speech recognition (WER, MER, WIL, WIP, as jiwer)',
  usage,
  async run(args, io) {
    const { values } = parseOptions(
      args,
      {
        references: { type: 'string' },
        hypotheses: { type: 'string' },
        lowercase: { type: 'boolean' },
        'remove-punctuation': { type: 'boolean' },
        alignment: { type: 'boolean' },
      },
      usage,
    );
    const refPath = required(values, 'references', usage);
    const hypPath = required(values, 'hypotheses', usage);
    const refs = parseCsv(await readText(io, refPath), refPath);
    const hyps = parseCsv(await readText(io, hypPath), hypPath);
    const refText = columnIndex(refs, 'transcript');
    const hypText = columnIndex(hyps, 'transcript');
    const refRows = rowsById(refs);
    const hypRows = rowsById(hyps);
    const ids: string[] = [];
    const references: string[] = [];
    const hypotheses: string[] = [];
    for (const [id, row] of refRows) {
      const hyp = hypRows.get(id);
      if (!hyp)
        throw new CliError(
          `${hypPath}: no hypothesis for id "${id}" (${refPath} line ${row.line})`,
        );
      ids.push(id);
      references.push(row.cells[refText]!);
      hypotheses.push(hyp.cells[hypText]!);
    }
    const withAlignment = values.alignment === true;
    const result = corpusWordErrors(references, hypotheses, {
      lowercase: values.lowercase === true,
      removePunctuation: values['remove-punctuation'] === true,
      alignment: withAlignment,
    });
    const measures = (m: (typeof result)['corpus']) => ({
      wer: m.wer,
      mer: m.mer,
      wil: m.wil,
      wip: m.wip,
      hits: m.hits,
      substitutions: m.substitutions,
      deletions: m.deletions,
      insertions: m.insertions,
      reference_words: m.referenceWords,
      hypothesis_words: m.hypothesisWords,
    });
    return printJson(io, {
      num_utterances: ids.length,
      ...measures(result.corpus),
      per_utterance: result.utterances.map((u, k) => ({
        id: ids[k],
        ...measures(u),
        ...(withAlignment ? { alignment: u.alignment } : {}),
      })),
    });
  },
};
