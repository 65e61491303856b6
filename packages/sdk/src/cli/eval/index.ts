// `loupe eval <task>`: computes a task's metrics from files with @loupe/metrics and prints JSON.
import { dispatch, type Command } from '../command.js';
import { classificationEval } from './classification.js';
import { cocoEval } from './coco.js';
import { regressionEval } from './regression.js';
import { segmentationEval } from './segmentation.js';
import { werEval } from './wer.js';

const tasks: readonly Command[] = [
  cocoEval,
  classificationEval,
  regressionEval,
  werEval,
  segmentationEval,
];

export const evalCommand: Command = {
  name: 'eval',
  summary:
    'compute evaluation metrics from files (coco, classification, regression, wer, segmentation)',
  usage:
    'Usage: loupe eval <task> [options]\n\nTasks:\n' +
    tasks.map((t) => `  ${t.name.padEnd(16)}${t.summary}`).join('\n') +
    "\n\nEach prints one JSON object on stdout. Run 'loupe eval <task> --help' for its options.\n",
  commands: tasks,
  run: (args, io) => dispatch('loupe eval', tasks, args, io),
};
