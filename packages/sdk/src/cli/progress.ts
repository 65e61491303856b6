// A one-line progress bar on a terminal (stderr); silent when stderr is not a TTY.
export function progressBar(
  label: string,
  total?: number,
  stream: NodeJS.WriteStream = process.stderr,
) {
  const started = Date.now();
  const enabled = Boolean(stream.isTTY);
  let last = 0;
  return {
    update(done: number) {
      if (!enabled || Date.now() - last < 100) return;
      last = Date.now();
      const rate = done / Math.max(0.001, (Date.now() - started) / 1000);
      const width = 24;
      const bar = total ? `[${'='.repeat(Math.round((done / total) * width)).padEnd(width)}] ` : '';
      const count = total
        ? `${done.toLocaleString()}/${total.toLocaleString()}`
        : done.toLocaleString();
      stream.write(`\r${label}  ${count} ${bar}${Math.round(rate).toLocaleString()}/s   `);
    },
    done() {
      if (enabled) stream.write('\n');
    },
  };
}
