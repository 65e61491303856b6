#!/usr/bin/env node
// Launches the `loupe` CLI: the built dist/cli.js when it is up to date with the sources,
// otherwise src/cli.ts through tsx, with workspace imports resolved to their TypeScript sources.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const sdk = join(dirname(fileURLToPath(import.meta.url)), '..');
const packages = dirname(sdk);
// Packages whose sources the CLI runs; each one's dist must be at least as new as its src.
const built = ['sdk', 'metrics', 'contracts'].map((name) => join(packages, name));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function upToDate(pkg, entry) {
  const output = join(pkg, 'dist', entry);
  const src = join(pkg, 'src');
  if (!existsSync(src)) return true;
  return existsSync(output) && statSync(output).mtimeMs >= newest(src);
}

const useDist =
  upToDate(built[0], 'cli.js') && built.slice(1).every((pkg) => upToDate(pkg, 'index.js'));

if (useDist) {
  await import(pathToFileURL(join(sdk, 'dist', 'cli.js')).href);
} else {
  const tsx = import.meta.resolve('tsx');
  const child = spawn(
    process.execPath,
    [
      '--conditions=loupe-src',
      '--import',
      tsx,
      join(sdk, 'src', 'cli.ts'),
      ...process.argv.slice(2),
    ],
    { stdio: 'inherit' },
  );
  child.on('exit', (code, signal) => {
    if (signal) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
}
