/**
 * @module
 * How the crowd bench (bench/crowd.ts) runs one tool and spreads a crowd: the tool's processes started
 * together, their CPU time from this process's reaped-children times and their peak VmRSS read every
 * 100 ms and summed; and how many source (or, for a peer that binds none, destination) addresses a crowd
 * to one server needs, past the local ports one address opens quickly.
 */
import { quickPortsOf } from "../runner/socket_budget.ts";
import { watchPeakRssKb } from "../tests/watched_run.ts";
import { childrenCpuSec } from "./tool_run.ts";

const RSS_POLL_MS = 100;

/**
 * Runs `argvs` together to their end, reading each one's VmRSS every 100 ms: their stdouts, CPU seconds
 * (all of them) and the sum of their peak RSS (MB).
 */
export async function measured(argvs: string[][], timeoutMs: number) {
  const before = childrenCpuSec();
  const ran = await Promise.all(argvs.map(async (argv) => {
    const child = new Deno.Command(argv[0], { args: argv.slice(1), stdout: "piped", stderr: "piped" })
      .spawn();
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    const rss = watchPeakRssKb(child.pid, RSS_POLL_MS);
    let peakKb = 0;
    const out = await child.output().finally(() => {
      clearTimeout(timer);
      peakKb = rss.stop();
    });
    return { out, peakKb };
  }));
  const after = childrenCpuSec();
  const peakKb = ran.reduce((sum, r) => sum + r.peakKb, 0);
  const peakRssMb = peakKb > 0 ? peakKb / 1024 : null;
  const stdouts = ran.map((r) => new TextDecoder().decode(r.out.stdout));
  const failed = ran.findIndex((r) => !r.out.success);
  if (failed >= 0) {
    // A failed run still held its crowd: its peak RSS is kept beside the failure.
    const { out } = ran[failed];
    const stderr = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-2).join(" | ");
    return { error: `exit ${out.code}: ${stderr.slice(-300) || stdouts[failed].slice(-300)}`, peakRssMb };
  }
  const cpuSec = before === null || after === null ? null : after - before;
  return { stdouts, cpuSec, peakRssMb };
}

/** Source addresses a crowd to one destination needs: 1, or past what one opens quickly, more. */
export function sourcesFor(crowd: number, localPorts: number | null): number {
  return localPorts === null || localPorts <= 1 ? 1 : Math.ceil(crowd / quickPortsOf(localPorts));
}

/** `count` connections split over `parts` processes, as evenly as whole numbers go. */
export function split(count: number, parts: number): number[] {
  return Array.from({ length: parts }, (_, i) => Math.floor(count / parts) + (i < count % parts ? 1 : 0));
}
