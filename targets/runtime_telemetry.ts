/**
 * @module
 * Reads the runtime samplers' lines (`<dir>/<pid>.jsonl`) into `runtime` telemetry series on the run's
 * time axis; only lines written after the reader started count.
 */
import type { TelemetrySeries } from "../results/mod.ts";
import type { SamplerLine } from "./runtime_sampler.ts";
import type { TargetProcess } from "./spec.ts";

type Sample = TelemetrySeries["samples"][number];

/** One sampler line as a telemetry sample at `tMs` of the run's axis. */
function runtimeSample(line: SamplerLine, tMs: number): Sample {
  const sample: Sample = {
    tMs,
    loopP50Ms: line.p50 ?? 0,
    loopP99Ms: line.p99 ?? 0,
    loopMaxMs: line.max ?? 0,
  };
  if (line.heap !== undefined) sample.heapUsedBytes = line.heap;
  if (line.gc) {
    sample.gc = Object.fromEntries(Object.entries(line.gc).map(([k, [count, ms]]) => [k, { count, ms }]));
  }
  return sample;
}

/** Tails every sampler file of one target's runtime folder. */
export class RuntimeReader {
  #offsets = new Map<string, number>();
  #series = new Map<number, TelemetrySeries>();

  constructor(readonly dir: string, readonly processes: TargetProcess[], readonly startEpochMs: number) {
    for (const file of this.#files()) this.#offsets.set(file, fileSize(file));
  }

  /** The series so far, in the target's process order, then unnamed pids. */
  get series(): TelemetrySeries[] {
    return [...this.#series.values()];
  }

  /** Reads every line written since the last read. Never throws: a missing folder reads as nothing. */
  read(): void {
    for (const file of this.#files()) {
      const text = readFrom(file, this.#offsets.get(file) ?? 0);
      if (!text) continue;
      this.#offsets.set(file, (this.#offsets.get(file) ?? 0) + new TextEncoder().encode(text).length);
      for (const raw of text.split("\n")) if (raw) this.#add(raw);
    }
  }

  #add(raw: string): void {
    let line: SamplerLine;
    try {
      line = JSON.parse(raw);
    } catch {
      return;
    }
    if (typeof line.t !== "number" || typeof line.pid !== "number" || line.t < this.startEpochMs) return;
    let series = this.#series.get(line.pid);
    if (!series) {
      const name = this.processes.find((p) => p.pid === line.pid)?.name ?? `pid ${line.pid}`;
      series = { name, kind: "runtime", runtime: line.runtime, samples: [] };
      this.#series.set(line.pid, series);
    }
    if (line.error) series.error = line.error;
    else series.samples.push(runtimeSample(line, line.t - this.startEpochMs));
  }

  #files(): string[] {
    try {
      return [...Deno.readDirSync(this.dir)]
        .filter((e) => e.isFile && e.name.endsWith(".jsonl"))
        .map((e) => `${this.dir}/${e.name}`);
    } catch {
      return [];
    }
  }
}

function fileSize(path: string): number {
  try {
    return Deno.statSync(path).size;
  } catch {
    return 0;
  }
}

/** The text of `path` from byte `offset` to its end ("" when there is none). */
function readFrom(path: string, offset: number): string {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path);
    const size = file.statSync().size;
    if (size <= offset) return "";
    file.seekSync(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(size - offset);
    let got = 0;
    while (got < buf.length) {
      const n = file.readSync(buf.subarray(got));
      if (n === null || n === 0) break;
      got += n;
    }
    // Cut at the last newline so a multi-byte character is never split; the rest is read next time.
    const end = buf.subarray(0, got).lastIndexOf(10) + 1;
    return new TextDecoder().decode(buf.subarray(0, end));
  } catch {
    return "";
  } finally {
    file?.close();
  }
}
