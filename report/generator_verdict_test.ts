import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { RunResult } from "../results/mod.ts";
import { makeRun } from "../tests/fixtures/make_run.ts";
import { generatorVerdict, hostTcpLine, hostTcpTroubled } from "./generator_verdict.ts";
import { formatShare } from "../results/conclude/send_counts.ts";
import { renderSummary } from "./terminal/summary.ts";

/** An open-model run of 1000 sends (990 answered, 10 timed out), with the given generator fields. */
function openRun(extra: Partial<RunResult>): RunResult {
  const run = makeRun({ name: "open", rps: 100, dist: { medianMs: 2, sigma: 0.5 }, durationSec: 10 });
  return { ...run, requests: 990, errors: { timeout: 10 }, droppedSends: 0, lateSends: 0, ...extra };
}

Deno.test("a share of sends: whole percents, one decimal under 1%, a dash without sends", () => {
  assertEquals([formatShare(930 / 1000), formatShare(4 / 1000), formatShare(0 / 1000), formatShare(1 / 0)], [
    "93%",
    "0.4%",
    "0%",
    "-",
  ]);
});

Deno.test("a server-bound run says which share of sends waited for a connection the server held", () => {
  const v = generatorVerdict(openRun({
    serverBoundSends: 930,
    serverBound: true,
    lateSends: 20,
    preConnected: 8,
    preConnectEstimateMs: 0.25,
    maxConnectsInFlight: 16,
    generatorWarmupMs: 203,
    transport: "epoll",
  }))!;
  assertEquals(v.kind, "server-bound");
  assertEquals(v.sentence, "server-bound: 93% of sends waited for a connection the server held");
  assertEquals(Object.fromEntries(v.facts), {
    "late sends (generator behind)": "20 (2% of 1,000 sends)",
    "server-bound sends (waited for a connection)": "930 (93% of 1,000 sends)",
    "dropped sends (later than the bound)": "0",
    "run verdict": "server-bound, lost 10",
    flags: "generatorBound false, serverBound true",
    "pre-connected pool": "8 connections at t0 (sized with a 250 µs connect)",
    "max connects in flight": "16",
    "generator warm-up": "203.00 ms against an in-process sink, before t0",
    transport: "epoll",
  });
});

Deno.test("a generator-bound run blames loadlab; a kept schedule says so; a fallback names its reason", () => {
  const late = generatorVerdict(openRun({ lateSends: 600, serverBoundSends: 0, generatorBound: true }))!;
  assertEquals(late.kind, "generator-bound");
  assert(late.sentence.startsWith("generator-bound: 60% of sends went out late"), late.sentence);
  const kept = generatorVerdict(openRun({ lateSends: 3, serverBoundSends: 0, transport: "deno" }))!;
  assertEquals(kept.sentence, "kept the schedule: 0.3% of sends late, 0% waited for a connection");
  const dropped = generatorVerdict(openRun({ lateSends: 3, serverBoundSends: 0, droppedSends: 250 }))!;
  assert(dropped.sentence.endsWith("; 20% of intended sends dropped"), dropped.sentence);
  const fallback = generatorVerdict(openRun({ transport: "deno", transportFallback: "https: needs TLS" }))!;
  assertEquals(Object.fromEntries(fallback.facts).transport, "deno (not epoll: https: needs TLS)");
});

Deno.test("closed models have no schedule to keep; a file without generator facts gets no verdict", () => {
  const closed = openRun({ model: "connections", targetRps: null, generatorWarmupMs: 0 });
  const v = generatorVerdict(closed)!;
  assertEquals(v.kind, "closed");
  assertEquals(v.facts.map(([label]) => label), ["run verdict", "flags", "generator warm-up"]);
  assertEquals(Object.fromEntries(v.facts)["generator warm-up"], "skipped");
  const { generatorWarmupMs: _, ...old } = closed;
  assertEquals(generatorVerdict(old as RunResult), null);
});

Deno.test("the host's kernel TCP counters are a fact labelled per host, and a summary line only when nonzero", () => {
  const hostTcp = { listenOverflows: 3, listenDrops: 3, synRetrans: 2, timeouts: 2, retransSegs: 0 };
  const v = generatorVerdict(openRun({ hostTcp, transport: "epoll" }))!;
  assertEquals(
    Object.fromEntries(v.facts)["kernel TCP (this host, all processes)"],
    "3 accept-queue overflows, 3 listen drops, 2 SYN retransmits, 2 retransmit timeouts, 0 segments resent",
  );
  assert(hostTcpTroubled(openRun({ hostTcp })));
  const quiet = { listenOverflows: 0, listenDrops: 0, synRetrans: 0, timeouts: 0, retransSegs: 0 };
  assert(!hostTcpTroubled(openRun({ hostTcp: quiet })));
  assert(
    renderSummary(openRun({ hostTcp })).includes("Kernel TCP (this host, all processes): 3 accept-queue"),
  );
  assert(!renderSummary(openRun({ hostTcp: quiet })).includes("Kernel TCP"));
  assertEquals(hostTcpLine(openRun({})), null); // older files have none
});
