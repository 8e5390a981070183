/**
 * @module
 * `loadlab ARGS` in a child process with its resident size read from outside every 10 ms: what the memory
 * limit's end-to-end tests judge (how far past the limit loadlab was seen, how long it took), beside its
 * exit code and output. The child is ended at 90 s, so a loadlab that never stops still ends the test.
 */
import { readProcSample } from "../system/proc_stat.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** What a watched run ended with: exit code, stdout and stderr, the highest RSS seen (MB), its seconds. */
export interface WatchedRun {
  code: number;
  text: string;
  peakMb: number;
  seconds: number;
}

/** Runs `loadlab ...args` from `cwd` with `env` added (NO_COLOR set), its RSS watched. */
export async function runWatched(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<WatchedRun> {
  const startedMs = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, ...args],
    cwd,
    env: { NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).spawn();
  const rss = watchPeakRssKb(child.pid, 10);
  const out = await child.output();
  const peakMb = rss.stop() / 1024;
  const text = new TextDecoder().decode(out.stdout) + new TextDecoder().decode(out.stderr);
  return { code: out.code, text, peakMb, seconds: (performance.now() - startedMs) / 1000 };
}

/** Polls `pid`'s VmRSS every `everyMs`; `stop()` gives the peak in KB. */
export function watchPeakRssKb(pid: number, everyMs: number): { stop(): number } {
  let peakKb = 0;
  const poll = setInterval(
    () => peakKb = Math.max(peakKb, (readProcSample(pid)?.rssBytes ?? 0) / 1024),
    everyMs,
  );
  return {
    stop() {
      clearInterval(poll);
      return peakKb;
    },
  };
}
