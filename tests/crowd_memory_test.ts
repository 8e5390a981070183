/**
 * What a connection of a big crowd costs the generator's memory: `loadlab attack` with one worker, run
 * at 50 and at 2,000 connections against the built-in target (in a process of its own), its peak RSS read
 * from /proc every 50 ms; the memory added per added connection stays within a budget, for HTTP/1.1
 * keep-alive and for WebSocket hold (open connections that ping once a second). The goal is 6 KB a
 * connection at 1,000 to 20,000 (wrk holds 4.5 KB; docs/PERFORMANCE.md has the crowd bench's figures);
 * from 50 the figure carries the heap's first steps of growth too (9-12 KB measured over HTTP/1.1), so
 * its budget leaves room for that and for a garbage collection landing in one run and not the other, and
 * still fails a connection that keeps a read buffer of its own (22-26 KB before). WebSocket hold measures
 * 5-9 KB here (a few seconds at 2,000 cannot show what its pings leave over a longer run: the crowd bench
 * does), so its budget is tighter, with room for the spread between runs (a collection in one and not the
 * other). A budget, never a timing: each run is bounded (a few seconds and a timeout), and the crowd is
 * checked to have opened, so a run that opened fewer connections cannot pass for a cheap one.
 */
import { ok } from "node:assert/strict";
import { type Background, startLoadlab } from "./background.ts";
import { watchPeakRssKb } from "../system/proc_stat.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;
const SMALL = 50;
const CROWD = 2_000;
/** KB of RSS a connection may add (see the module comment): HTTP/1.1 keep-alive, WebSocket hold. */
const BUDGET_KB_PER_CONNECTION = 16;
const WS_HOLD_BUDGET_KB_PER_CONNECTION = 12;

/** Peak RSS (KB) of one `loadlab attack` run and its JSON result. */
async function peakRss(args: string[]): Promise<{ peakKb: number; result: Record<string, unknown> }> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--v8-flags=--max-semi-space-size=4", MAIN, "attack", ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const rss = watchPeakRssKb(child.pid, 50);
  let peakKb = 0;
  const kill = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const out = await child.output().finally(() => {
    peakKb = rss.stop();
    clearTimeout(kill);
  });
  const stdout = new TextDecoder().decode(out.stdout);
  ok(stdout.trim().startsWith("{"), `no JSON result: ${new TextDecoder().decode(out.stderr).slice(-500)}`);
  return { peakKb, result: JSON.parse(stdout) };
}

async function perAddedConnectionKb(target: string, extra: string[]): Promise<number> {
  const run = (c: number) =>
    peakRss([
      "-c",
      `${c}`,
      "-d",
      "3s",
      "--workers",
      "1",
      "--timeout",
      "20s",
      "--json",
      "--no-live",
      ...extra,
      target,
    ]);
  const small = await run(SMALL);
  const crowd = await run(CROWD);
  ok(
    Number(crowd.result.connects) >= CROWD,
    `the crowd opened: ${crowd.result.connects} of ${CROWD} connects`,
  );
  return (crowd.peakKb - small.peakKb) / (CROWD - SMALL);
}

async function withTarget(fn: (origin: string) => Promise<void>): Promise<void> {
  const target: Background = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await fn(target.url.replace(/\/$/, ""));
  } finally {
    target.child.kill("SIGTERM");
    await target.done;
  }
}

Deno.test({
  name:
    `HTTP/1.1: a keep-alive connection adds at most ${BUDGET_KB_PER_CONNECTION} KB of RSS (${CROWD} vs ${SMALL})`,
  ignore: Deno.build.os !== "linux",
  async fn() {
    await withTarget(async (origin) => {
      const kb = await perAddedConnectionKb(`${origin}/json`, []);
      console.log(`HTTP/1.1: ${kb.toFixed(1)} KB of RSS per added connection`);
      ok(kb <= BUDGET_KB_PER_CONNECTION, `${kb.toFixed(1)} KB per added connection`);
    });
  },
});

Deno.test({
  name:
    `WebSocket hold: a connection adds at most ${WS_HOLD_BUDGET_KB_PER_CONNECTION} KB of RSS (${CROWD} vs ${SMALL})`,
  ignore: Deno.build.os !== "linux",
  async fn() {
    await withTarget(async (origin) => {
      const kb = await perAddedConnectionKb(`${origin.replace("http:", "ws:")}/ws/echo`, ["--ws-ping", "1s"]);
      console.log(`WebSocket hold: ${kb.toFixed(1)} KB of RSS per added connection`);
      ok(kb <= WS_HOLD_BUDGET_KB_PER_CONNECTION, `${kb.toFixed(1)} KB per added connection`);
    });
  },
});
