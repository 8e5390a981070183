import assert from "node:assert/strict";
import { makeRun } from "../../tests/fixtures/make_run.ts";
import type { ResultsFile, RunResult } from "../mod.ts";
import { concludeBroadcasts } from "./broadcast.ts";
import { buildFindings } from "./findings.ts";
import { analyze } from "./analysis.ts";
import { explainKnees } from "./knee/explained.ts";

/** A room of `members` at 100 messages/s with fan-out p50/p99 and the target's CPU (% of a core). */
function member(
  members: number,
  p50Ms: number,
  p99Ms: number,
  cpuPercent = 40,
  extra: Partial<RunResult> = {},
) {
  const run = makeRun({
    name: `deno/room/load.connections=${members}`,
    variant: "deno",
    load: "room",
    model: "throughput",
    sweep: { parameter: "load.connections", value: members },
    rps: 100,
    targetRps: 100,
    dist: { medianMs: 2, sigma: 0.3 },
    durationSec: 2,
    telemetry: null,
  });
  run.rps = 100;
  run.generatorBound = false;
  run.telemetry = [{
    name: "target",
    kind: "process",
    samples: [0, 250, 500, 750].map((tMs) => ({ tMs, cpuPercent })),
  }];
  run.ws = {
    handshakes: members,
    preConnectedHandshakes: members,
    handshakeMs: null,
    messagesSent: 200,
    messagesReceived: 200 * members,
    payloadBytesSent: 4600,
    payloadBytesReceived: 20_000 * members,
    unsolicited: 200 * (members - 1),
    fanoutMs: { ...run.latencyMs, p50: p50Ms, p99: p99Ms },
    pingsSent: 0,
    pongsReceived: 0,
    closesSent: members,
    closeCodes: {},
  };
  return { ...run, ...extra };
}

function results(runs: RunResult[]): ResultsFile {
  return {
    schema: "loadlab.results/v1",
    experiment: { name: "chat-capacity", preset: "chat-capacity", quick: true },
    environment: { cores: 2 },
    complete: true,
    runs,
  } as unknown as ResultsFile;
}

Deno.test("broadcast: a knee where fan-out grows much faster than the members, with what saturated above", () => {
  const [finding] = concludeBroadcasts(results([
    member(500, 4, 20, 65),
    member(50, 1, 5, 10),
    member(1000, 300, 900, 99),
    member(250, 2, 9, 35),
  ]));
  assert.equal(finding.outcome, "knee");
  assert.equal(finding.kneeMembers, 500);
  assert.equal(finding.heldMembers, 500);
  assert.match(
    finding.sentence,
    /^deno \/ room, a room at 100 messages\/s swept over 50 to 1,000 members: held 500 members; the knee at 500 members: above it, at 1,000, fan-out p99 went 20 ms → 900 ms \(45x\) while the members grew 2x \(fan-out p50 \/ p99 by members 50: 1\.00 ms \/ 5\.00 ms, 250: .*1,000: 300\.00 ms \/ 900\.00 ms\)\.$/,
  );
  assert.match(finding.saturated!, /^Above the knee of deno \/ room \(members 500 → 1000\) .*CPU-bound\.$/);
  assert.equal(finding.qualifiers, null);
});

Deno.test("broadcast: fan-out growing with the members, no faster, is no knee; every point held", () => {
  const [finding] = concludeBroadcasts(results([
    member(50, 1, 4),
    member(500, 5, 30),
    member(2000, 20, 110),
  ]));
  assert.equal(finding.outcome, "no knee");
  assert.equal(finding.heldMembers, 2000);
  assert.match(finding.sentence, /: held 2,000 members; no knee between 50 and 2,000 members \(fan-out/);
});

Deno.test("broadcast: a bend where loadlab's generator was the limit is no knee of the target's", () => {
  const bent = member(2000, 1200, 2600, 80, { generatorBound: true, rps: 3, unfinished: 240 });
  bent.config = { ...bent.config, gracefulStopMs: 2000 };
  const [finding] = concludeBroadcasts(results([member(50, 1, 5), member(500, 4, 20), bent]));
  assert.equal(finding.outcome, "generator");
  assert.equal(finding.kneeMembers, null);
  assert.equal(finding.saturated, null, "no telemetry verdict for a bend the generator made");
  assert.equal(finding.heldMembers, 500);
  assert.match(
    finding.sentence,
    /held at least 500 members; fan-out bent between 500 and 2,000 members \(served 3% of the requested messages per second\), but there loadlab's generator was the limit \(generator-bound\): no knee of the target's/,
  );
  assert.match(
    finding.qualifiers!,
    /^Qualified by: 2,000 members generator-bound, .*unanswered 240 at the stop/,
  );

  // A generator-bound point below the bend still qualifies the answer, and is not counted as held.
  const [early] = concludeBroadcasts(results([
    member(50, 1, 5),
    member(250, 2, 9, 30, { generatorBound: true }),
    member(500, 4, 20),
  ]));
  assert.equal(early.outcome, "no knee");
  assert.equal(early.heldMembers, 500);
  assert.match(early.qualifiers!, /250 members generator-bound/);
});

Deno.test("broadcast: generator-bound points are skipped, named, and the target's own bend above them is its knee", () => {
  const [finding] = concludeBroadcasts(results([
    member(50, 1, 8, 7),
    member(100, 1.5, 9, 10, { generatorBound: true }),
    member(200, 5, 200, 17, { generatorBound: true }),
    member(400, 630, 4400, 20, { rps: 26, serverBound: true }),
  ]));
  assert.equal(finding.outcome, "knee");
  assert.equal(finding.kneeMembers, 50);
  assert.equal(finding.heldMembers, 50);
  assert.match(
    finding.sentence,
    /the knee at 50 members: above it, at 400, served 26% of the requested messages per second \(between them 100, 200 not judged: generator-bound\)/,
  );
  assert.match(finding.saturated!, /^Above the knee of deno \/ room \(members 50 → 400\)/);
  assert.match(
    finding.qualifiers!,
    /100 members generator-bound; 200 members generator-bound; 400 members server-bound/,
  );
});

Deno.test("broadcast: members lost, dropped sends and a short served rate where the server was the limit are bends and qualifiers", () => {
  const lost = member(1000, 5, 25, 50, { errors: { "ws-closed": 40, connect: 10 }, serverBound: true });
  const [finding] = concludeBroadcasts(results([member(50, 1, 5), member(500, 3, 15), lost]));
  assert.equal(finding.outcome, "knee");
  assert.equal(finding.kneeMembers, 500);
  assert.match(
    finding.sentence,
    /the knee at 500 members: above it, at 1,000, not every member stayed connected/,
  );
  assert.match(finding.qualifiers!, /1,000 members .*errors/);

  const short = member(50, 30, 90, 99, { rps: 40, droppedSends: 60, serverBound: true });
  const [lowest] = concludeBroadcasts(results([short, member(500, 40, 100)]));
  assert.equal(lowest.outcome, "lowest");
  assert.equal(lowest.heldMembers, null);
  assert.match(
    lowest.sentence,
    /no point held every member cleanly; fan-out bent from the lowest member count, 50/,
  );
  assert.match(lowest.qualifiers!, /50 members .*dropped/);
});

Deno.test("broadcast: a server that stamps no send time gets no fan-out, said as such", () => {
  const runs = [member(50, 1, 5), member(500, 4, 20)].map((r) => ({
    ...r,
    ws: { ...r.ws!, fanoutMs: null },
  }));
  const [finding] = concludeBroadcasts(results(runs));
  assert.equal(finding.outcome, "no fan-out");
  assert.match(finding.sentence, /no broadcast carried the target's send time \("sentAt", epoch ms\)/);
});

Deno.test("findings: the broadcast answer comes first; the req/s knee of the same sweep is not explained anywhere", () => {
  const file = results([
    member(50, 1, 5),
    member(500, 4, 20),
    member(1000, 1200, 2600, 80, { generatorBound: true, rps: 3 }),
  ]);
  file.analysis = analyze(file.runs);
  // The general knee declines the generator-bound bend by the same rule (judged.ts) ...
  assert.ok(file.analysis.knees.every((k) => k.value === null), "req/s bent only where loadlab did");
  assert.ok(file.analysis.knees.some((k) => /1000 not judged: generator-bound/.test(k.reason)));
  // ... and a req/s knee stored from before that rule is still not explained beside the room's.
  file.analysis.knees = file.analysis.knees.map((k) => ({ ...k, value: 500 }));
  const findings = buildFindings(file);
  assert.deepEqual(findings.slice(0, 2).map((f) => [f.kind, f.tone]), [["broadcast", "warn"], [
    "broadcast",
    "warn",
  ]]);
  assert.ok(!findings.some((f) => f.kind === "knee"), findings.map((f) => f.text).join("\n"));
  // Nor does the report's sweep section explain it: one place skips it for both.
  assert.deepEqual(explainKnees(file), []);
});

Deno.test("broadcast: a bend at a point flagged otherwise (warm-up, members lost) is not judged either", () => {
  const [cold] = concludeBroadcasts(results([
    member(50, 1, 5),
    member(500, 4, 20),
    member(1000, 300, 900, 99, { warmupNotReached: true }),
  ]));
  assert.equal(cold.outcome, "not judged");
  assert.equal(cold.kneeMembers, null);
  assert.equal(cold.saturated, null);
  assert.match(
    cold.sentence,
    /fan-out bent between 500 and 1,000 members \(fan-out p99 went .*\), but its numbers there are not the target's alone \(warm-up not reached\): no knee of the target's/,
  );
  // Members lost without the server being the limit may be loadlab's sockets as much as the target's.
  const [lost] = concludeBroadcasts(results([
    member(50, 1, 5),
    member(500, 4, 20),
    member(1000, 5, 25, 50, { errors: { "ws-closed": 40, connect: 10 } }),
  ]));
  assert.equal(lost.outcome, "not judged");
  assert.match(
    lost.sentence,
    /not every member stayed connected\), but its numbers there are not the target's alone \(lost 10/,
  );
});

Deno.test("broadcast: a room swept at one member count has no range to bend in, and says so", () => {
  const [one] = concludeBroadcasts(results([member(50, 1, 5)]));
  assert.equal(one.outcome, "no knee");
  assert.equal(one.heldMembers, 50);
  assert.match(one.sentence, /: held 50 members; one member count swept, so no knee to find \(fan-out/);
  assert.doesNotMatch(one.sentence, /between 50 and 50/);
});
