/**
 * @module
 * Side-by-side measurement behind docs/TARGETS.md's balancer numbers: one built-in instance alone, N
 * instances behind the balancer, N instances sharing a port, each pinned to core 0 (`--target-cores`),
 * loaded by `wrk` pinned to the last core, in rounds whose order rotates so a stall of the shared machine
 * does not always hit the same setup. Reported per setup: req/s and the CPU time per request of every
 * process (user + system from /proc, split), which is the steadier figure on a shared machine, with the
 * load average before each round. Not a test: it needs wrk and taskset and asserts nothing.
 *
 * ```sh
 * deno run -A bench/balancer_compare.ts --duration 5 --connections 50 --rounds 3 --path /
 * ```
 */
import { parseArgs } from "node:util";
import { startTarget } from "../targets/start.ts";
import type { BuiltinSpec } from "../targets/spec.ts";
import { readProcStat } from "../system/proc_stat.ts";

/** utime and stime of `pid` in seconds. */
function cpuSec(pid: number): { user: number; system: number } {
  const stat = readProcStat(pid);
  if (stat === null) throw new Error(`process ${pid} is gone: no CPU time to read`);
  return { user: stat.userSec, system: stat.systemSec };
}

async function run(command: string, args: string[]): Promise<string> {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" }).output();
  return new TextDecoder().decode(out.stdout);
}

async function wrk(url: string, opts: { durationSec: number; connections: number; core: number }) {
  const text = await run("taskset", [
    "-c",
    String(opts.core),
    "wrk",
    "-t1",
    `-c${opts.connections}`,
    `-d${opts.durationSec}s`,
    url,
  ]);
  return {
    requests: Number(/(\d+) requests in/.exec(text)?.[1] ?? 0),
    ratePerSec: Number(/Requests\/sec:\s+([\d.]+)/.exec(text)?.[1] ?? 0),
    errors: Number(/Non-2xx or 3xx responses: (\d+)/.exec(text)?.[1] ?? 0),
  };
}

async function measure(name: string, spec: BuiltinSpec, opts: Options): Promise<string> {
  const target = await startTarget(spec);
  try {
    const url = target.url + opts.path;
    await wrk(url, { ...opts, durationSec: 1 }); // warm-up: JIT, the balancer's pools
    const before = target.processes.map((p) => cpuSec(p.pid));
    const result = await wrk(url, opts);
    const per = target.processes.map((p, i) => {
      const after = cpuSec(p.pid);
      const us = (s: number) => ((s * 1e6) / result.requests).toFixed(1);
      const user = after.user - before[i].user, system = after.system - before[i].system;
      return `${p.name} ${us(user + system)} us (user ${us(user)} + sys ${us(system)})`;
    });
    const rate = Math.round(result.ratePerSec).toLocaleString("en-US");
    return `${name.padEnd(22)} ${rate.padStart(7)} req/s  errors ${result.errors}  ${per.join(", ")}`;
  } finally {
    await target.stop();
  }
}

interface Options {
  durationSec: number;
  connections: number;
  path: string;
  core: number;
}

if (import.meta.main) {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      duration: { type: "string", default: "5" },
      connections: { type: "string", default: "50" },
      rounds: { type: "string", default: "3" },
      instances: { type: "string", default: "2" },
      path: { type: "string", default: "/" },
      "target-cores": { type: "string", default: "0" },
    },
  });
  const cores = values["target-cores"].split(",").map(Number);
  const instances = Number(values.instances);
  const opts: Options = {
    durationSec: Number(values.duration),
    connections: Number(values.connections),
    path: values.path,
    core: navigator.hardwareConcurrency - 1,
  };
  const setups: [string, BuiltinSpec][] = [
    ["1 instance", { kind: "builtin", cpuAffinity: cores }],
    [`${instances} + balancer (rr)`, {
      kind: "builtin",
      instances,
      balance: "round-robin",
      cpuAffinity: cores,
    }],
    [`${instances} reuse-port`, { kind: "builtin", instances, balance: "reuse-port", cpuAffinity: cores }],
  ];
  for (let round = 0; round < Number(values.rounds); round++) {
    console.log(`round ${round + 1}: ${(await run("uptime", [])).trim()}`);
    for (let k = 0; k < setups.length; k++) {
      const [name, spec] = setups[(round + k) % setups.length];
      console.log(await measure(name, spec, opts));
    }
  }
}
