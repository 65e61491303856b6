// Measuring for benchmarks that run the server in their own process: wall and CPU time of a
// figure (with an optional CPU profile), waiting for the server's background work to settle,
// memory sampled while a figure runs, and the printed line of a figure against its target.
import os from 'node:os';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { constants, PerformanceObserver, type PerformanceEntry } from 'node:perf_hooks';
import { join } from 'node:path';

/**
 * Waits until the event loop answers a timer within 20 ms ten times in a row (the server's
 * background work between requests is done); answers how long that took in ms.
 */
export async function untilIdle(): Promise<number> {
  const start = performance.now();
  let quiet = 0;
  while (quiet < 10) {
    const asked = performance.now();
    await new Promise((wake) => setTimeout(wake, 10));
    quiet = performance.now() - asked < 30 ? quiet + 1 : 0;
  }
  return performance.now() - start;
}

/** A full collection, when node runs with --expose-gc. */
export const gc = (): void => (global as { gc?: () => void }).gc?.();
export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** The load averages over 1, 5 and 15 minutes, as a benchmark prints them. */
export const loadavg = (): string =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

export const sleep = (ms: number): Promise<void> => new Promise((wake) => setTimeout(wake, ms));

/** V8's heap plus buffers: what a figure holds in memory. */
// `external` includes `arrayBuffers` (Node.js counts every ArrayBuffer and Buffer in both).
export const heapOf = (m: NodeJS.MemoryUsage): number => m.heapUsed + m.external;

export function median(times: number[]): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export interface Timed<T> {
  result: T;
  /** Wall time, ms. */
  ms: number;
  /** CPU time of the whole process (server and client), ms. */
  cpu: number;
}

/**
 * `timed(fn, name?)` measures fn's wall and CPU time; with a profile directory, a named figure
 * also writes its CPU profile there as `<prefix>-<name>.cpuprofile`.
 */
export function createTimer(profileDir: string | undefined) {
  let inspector: Session | undefined;
  let prefix = '';
  return {
    /** What profile files start with (the database of the run). */
    setPrefix(name: string): void {
      prefix = name;
    },
    async timed<T>(fn: () => Promise<T>, profile?: string): Promise<Timed<T>> {
      const profiling = profile !== undefined && profileDir !== undefined;
      if (profiling) {
        inspector ??= new Session();
        inspector.connect();
        await inspector.post('Profiler.enable');
        await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
        await inspector.post('Profiler.start');
      }
      const cpu = process.cpuUsage();
      const start = performance.now();
      const result = await fn();
      const used = process.cpuUsage(cpu);
      const ms = performance.now() - start;
      if (profiling && inspector) {
        const { profile: written } = await inspector.post('Profiler.stop');
        mkdirSync(profileDir, { recursive: true });
        writeFileSync(join(profileDir, `${prefix}-${profile}.cpuprofile`), JSON.stringify(written));
        inspector.disconnect();
      }
      return { result, ms, cpu: (used.user + used.system) / 1000 };
    },
  };
}

/** One figure: wall and CPU time (ms) against a time target. */
export function line(
  name: string,
  r: { ms: number; cpu?: number },
  target: number,
  extra = '',
): void {
  const cpu = r.cpu === undefined ? '' : ` / ${r.cpu.toFixed(0).padStart(6)} ms CPU`;
  console.log(
    `${name.padEnd(58)} ${r.ms.toFixed(0).padStart(6)} ms wall${cpu}   target ≤ ${target} ms   ratio ${(r.ms / target).toFixed(2)}${extra ? `   ${extra}` : ''}`,
  );
}

/** A benchmark checks its answers; a wrong one stops it (a slow one never does). */
export function check(ok: boolean, what: string): void {
  if (!ok) throw new Error(`check failed: ${what}`);
}

export interface MemoryPeak {
  /** Peak RSS above the start, bytes. */
  rss: number;
  /** Peak of V8's heap plus buffers above the start. */
  heap: number;
  /** Peak of what stayed live after a full collection, above the start. */
  live: number;
  fullGcs: number;
  baseRss: number;
}

/**
 * The process's memory every 20 ms while a figure runs: the peak of RSS and of V8's heap plus
 * buffers above where they were when it started (after a collection), and the peak of the heap
 * left live after each full collection (what the figure holds, not its garbage).
 */
export function memorySampler(): { stop(): MemoryPeak } {
  gc();
  const base = process.memoryUsage();
  let rss = base.rss;
  let heap = heapOf(base);
  let live = heapOf(base);
  let fullGcs = 0;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, heapOf(m));
  }, 20);
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (
        (entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ===
        constants.NODE_PERFORMANCE_GC_MAJOR
      ) {
        fullGcs++;
        live = Math.max(live, heapOf(process.memoryUsage()));
      }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    stop() {
      clearInterval(timer);
      observer.disconnect();
      return {
        rss: rss - base.rss,
        heap: heap - heapOf(base),
        live: live - heapOf(base),
        fullGcs,
        baseRss: base.rss,
      };
    },
  };
}

/** Resident memory of this process's child processes, in bytes, from /proc (Linux; 0 elsewhere). */
function childrenRss(): number {
  let total = 0;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command (which may hold spaces): state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${entry}/status`, 'utf8'));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      // The process ended while being read.
    }
  }
  return total;
}

/**
 * Peak resident memory of the server's child processes (the checks process) and of the server
 * and its children together, sampled every 250 ms while a figure runs.
 */
export function childMemorySampler(): { stop(): { children: number; total: number } } {
  let children = 0;
  let total = 0;
  const sample = () => {
    const own = childrenRss();
    children = Math.max(children, own);
    total = Math.max(total, own + process.memoryUsage().rss);
  };
  sample();
  const timer = setInterval(sample, 250);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { children, total };
    },
  };
}
