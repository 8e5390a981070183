/**
 * `loadlab run preset:chat-capacity --quick` end to end (docs/studies/chat-capacity.md): one chat room on the
 * built-in target's /ws/room at 50 messages a second, swept over 50 to 1200 members. Which point bends, and
 * whether loadlab's own generator was the limit there, follows the CPU share each side gets on a machine
 * whose cores are busy with other work, so the test asserts what holds whatever that share is:
 * - the room works: at 50 and 200 members every member joined and none was lost, every member timed the
 *   copies of the others' messages (fan-out), and the target counted more messages out than in;
 * - fan-out grows with the members: its p50 at 800 members over that at 50 (every copy goes out one send
 *   after the other, so the median copy waits for 400 sends against 25);
 * - the finding is stated first and carries its qualifiers: a knee is claimed only where the point above it
 *   was not generator-bound (and then says what saturated, from the target's telemetry); every point the
 *   run verdict flags is named in "Qualified by"; the same sentence is printed and in the report.
 * Then the report opens in chromium with no console error, its Findings led by the answer.
 */
import assert from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { concludeBroadcasts } from "../../results/conclude/broadcast.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { openReport } from "../browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "../helpers.ts";

const POINTS = [400, 50, 1200, 200, 800];

function runAt(results: ResultsFile, members: number): RunResult {
  const run = results.runs.find((r) => r.name === `deno/room/load.connections=${members}`);
  assert.ok(run, `no run at ${members} members in ${results.runs.map((r) => r.name).join(", ")}`);
  return run;
}

function assertRoom(results: ResultsFile): void {
  for (const members of [50, 200]) {
    const run = runAt(results, members), ws = run.ws!;
    assert.ok(ws.handshakes >= members, `${run.name}: ${ws.handshakes} handshakes`);
    const lost = Object.keys(run.errors).filter((k) => k.startsWith("ws-") || k === "connect");
    assert.deepEqual(lost, [], `${run.name} lost members: ${JSON.stringify(run.errors)}`);
    assert.ok(
      ws.unsolicited > 10 * run.requests,
      `${run.name}: ${ws.unsolicited} copies of others' messages`,
    );
    assert.ok(ws.fanoutMs !== null, `${run.name} timed no fan-out`);
    const stats = run.targetStats ?? {};
    assert.ok((stats.wsMessagesOut ?? 0) > (stats.wsMessagesIn ?? 0), JSON.stringify(stats));
  }
  const low = runAt(results, 50).ws!.fanoutMs!.p50, high = runAt(results, 800).ws!.fanoutMs?.p50 ?? 0;
  assert.ok(high > low, `fan-out p50 ${low} ms at 50 members, ${high} ms at 800`);
}

function assertFinding(results: ResultsFile, stdout: string): string {
  const [finding] = concludeBroadcasts(results);
  assert.ok(finding, "a broadcast finding");
  assert.match(finding.sentence, /^deno \/ room, a room at 50 messages\/s swept over 50 to 1,200 members: /);
  assert.notEqual(finding.outcome, "no fan-out");
  if (finding.outcome === "knee") {
    const above = Math.min(...POINTS.filter((n) => n > finding.kneeMembers!));
    assert.equal(runAt(results, above).generatorBound, false, "a knee the generator made is no knee");
    assert.match(finding.saturated ?? "", /^Above the knee of deno \/ room \(members /);
  }
  if (finding.outcome === "generator") assert.match(finding.sentence, /generator-bound\): no knee/);
  for (const members of POINTS) {
    const verdict = runVerdict(runAt(results, members));
    if (verdict.ok) continue;
    assert.ok(
      finding.qualifiers?.includes(`${members.toLocaleString("en-US")} members ${verdict.flags[0].label}`),
    );
  }
  assert.ok(stdout.includes(finding.sentence), "the terminal prints the finding");
  return finding.sentence;
}

Deno.test({
  name:
    "preset:chat-capacity --quick: members held, fan-out by members, the knee only where the target made it",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await withTempDir(async (dir) => {
      const out = await runLoadlab(["run", "preset:chat-capacity", "--quick", "--out-dir", dir]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assert.deepEqual(
        [results.experiment.preset, results.experiment.quick, results.complete],
        ["chat-capacity", true, true],
      );
      assert.deepEqual(results.runs.map((r) => r.name), POINTS.map((n) => `deno/room/load.connections=${n}`));
      assertRoom(results);
      const sentence = assertFinding(results, out.stdout);
      console.log(sentence);
      await t.step({
        name: "the report opens in chromium, its Findings led by the answer",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(`${dir}/report.html`, async (page) => ({
            first: await page.locator("#findings li.finding").first().textContent(),
            broadcast: await page.locator("#findings li.finding.broadcast").count(),
          }));
          assert.deepEqual(problems, []);
          assert.equal(value.first, sentence);
          assert.ok(value.broadcast >= 1);
        },
      });
    });
  },
});
