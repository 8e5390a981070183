/**
 * `loadlab attack -o` and `--report` are written even when the process has no file descriptor left at
 * the end of its load (a load worker ended while stuck leaves its sockets open): attack holds one in
 * reserve from before the load, as `run` does. The child's open-file limit is lowered under what it
 * uses while its load runs (`prlimit` on its pid), so every open after the load finds no descriptor
 * but one released for it. Against the built-in target; a 2 s load.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget, withTempDir } from "./helpers.ts";
import { findProgram } from "../system/path_lookup.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** The child's open descriptors: number and what each is (`socket:[...]`, a path). */
async function descriptorsOf(pid: number): Promise<Array<[number, string]>> {
  const fds: Array<[number, string]> = [];
  for await (const entry of Deno.readDir(`/proc/${pid}/fd`)) {
    const link = await Deno.readLink(`/proc/${pid}/fd/${entry.name}`).catch(() => "");
    fds.push([Number(entry.name), link]);
  }
  return fds.sort((a, b) => a[0] - b[0]);
}

/** The inodes of the child's TCP sockets to `port` (its load's connections). */
async function socketInodesTo(pid: number, port: number): Promise<Set<string>> {
  const inodes = new Set<string>();
  const hexPort = port.toString(16).toUpperCase().padStart(4, "0");
  for (const table of ["tcp", "tcp6"]) {
    const text = await Deno.readTextFile(`/proc/${pid}/net/${table}`).catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/);
      if (fields[2]?.endsWith(`:${hexPort}`)) inodes.add(fields[9]);
    }
  }
  return inodes;
}

/**
 * Once the child's load has connections open (90 s at most: a cold start compiles every module), the
 * limit that leaves it no descriptor: one past its highest `/dev/null` (a reserve taken before the load,
 * below every descriptor of the load), or past its stdio when it has none, so a write finds only a
 * descriptor released for it.
 */
async function exhaustingLimitOf(pid: number, port: number): Promise<number> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    const inodes = await socketInodesTo(pid, port);
    const fds = await descriptorsOf(pid);
    if (fds.filter(([, link]) => inodes.has(link.slice(8, -1))).length >= 2) {
      // None (no reserve): stdin, stdout and stderr only.
      return 1 + Math.max(2, ...fds.filter(([, link]) => link === "/dev/null").map(([fd]) => fd));
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error("the load opened no connection within 90 s");
}

Deno.test({
  name: "attack -o and --report are written when the load left the process no file descriptor",
  ignore: Deno.build.os !== "linux" || findProgram("prlimit") === null,
  fn: () =>
    withTarget((url) =>
      withTempDir(async (dir) => {
        const child = new Deno.Command(Deno.execPath(), {
          args: [
            "run",
            "-A",
            MAIN,
            "attack",
            `${url}/json`,
            "-c",
            "2",
            "-d",
            "2s",
            "--no-live",
            "-o",
            `${dir}/results.json`,
            "--report",
            `${dir}/report.html`,
          ],
          // Not /dev/null: the limit is read from the child's /dev/null descriptors.
          stdin: "piped",
          stdout: "piped",
          stderr: "piped",
          env: { NO_COLOR: "1" },
          signal: AbortSignal.timeout(120_000),
        }).spawn();
        const limit = await exhaustingLimitOf(child.pid, Number(new URL(url).port));
        const lowered = await new Deno.Command("prlimit", {
          args: ["--pid", String(child.pid), `--nofile=${limit}:`],
        }).output();
        ok(lowered.success, new TextDecoder().decode(lowered.stderr));
        const out = await child.output();
        const stderr = new TextDecoder().decode(out.stderr);
        assertEquals(out.code, 0, stderr);
        const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
        ok(results.runs[0].requests > 0, "the run's results are whole");
        ok((await Deno.readTextFile(`${dir}/report.html`)).includes("<html"), "the report is written");
      })
    ),
});
