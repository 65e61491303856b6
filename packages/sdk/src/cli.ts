// Entry point of the `loupe` executable (see bin/loupe.js, which runs this file).
import { nodeIo } from './cli/io.js';
import { runCli } from './cli/main.js';

process.exitCode = await runCli(process.argv.slice(2), nodeIo);
