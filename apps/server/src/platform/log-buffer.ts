// Keeps the most recent log lines in memory for the support bundle (pino writes to it and to stdout).
export class LogBuffer {
  private readonly lines: string[] = [];

  constructor(private readonly capacity = 2000) {}

  write(line: string): void {
    this.lines.push(line.endsWith('\n') ? line : `${line}\n`);
    if (this.lines.length > this.capacity) this.lines.splice(0, this.lines.length - this.capacity);
  }

  text(): string {
    return this.lines.join('');
  }
}
