/**
 * `loadlab run preset:chat-capacity --quick` end to end (docs/studies/chat-capacity.md): one chat room at 50
 * messages a second on the built-in target's /ws/room (Deno) and on examples/chat (Node with the ws package,
 * or Deno's npm compatibility without them), swept over 50 to 1200 members. Which point bends, and
 * whether loadlab's own generator was the limit there, follows the CPU share each side gets on a machine
 * whose cores are busy with other work, so the test asserts what holds whatever that share is:
 * - each room works: at 50 and 200 members every member joined and none was lost, every member timed the
 *   copies of the others' messages (fan-out), and the built-in target counted more messages out than in;
 * - fan-out grows with the members: its p50 at 800 members over that at 50 (every copy goes out one send
 *   after the other, so the median copy waits for 400 sends against 25);
 * - each server's finding is stated first and carries its qualifiers: a knee is claimed only where the bent
 *   point above it was not generator-bound (and then says what saturated, from the server's telemetry);
 *   every point the run verdict flags is named in "Qualified by"; the sentences are printed and in the
 *   report.
 * Then the report opens in chromium with no console error, its Findings led by the answers.
 */
import assert from "node:assert/strict";
import type { ResultsFile, RunResult } from "../../results/mod.ts";
import { concludeBroadcasts } from "../../results/conclude/broadcast.ts";
import { runVerdict } from "../../results/conclude/run_verdict.ts";
import { openReport } from "../browser.ts";
import { requireProgram, runLoadlab, withTempDir } from "../helpers.ts";

const POINTS = [400, 50, 1200, 200, 800];
const VARIANTS = ["deno", "node"];

function runAt(results: ResultsFile, variant: string, members: number): RunResult {
  const run = results.runs.find((r) => r.name === `${variant}/room/load.connections=${members}`);
  assert.ok(run, `no run at ${members} members in ${results.runs.map((r) => r.name).join(", ")}`);
  return run;
}

function assertRoom(results: ResultsFile, variant: string): void {
  for (const members of [50, 200]) {
    const run = runAt(results, variant, members), ws = run.ws!;
    assert.ok(ws.handshakes >= members, `${run.name}: ${ws.handshakes} handshakes`);
    const lost = Object.keys(run.errors).filter((k) => k.startsWith("ws-") || k === "connect");
    assert.deepEqual(lost, [], `${run.name} lost members: ${JSON.stringify(run.errors)}`);
    assert.ok(
      ws.unsolicited > 10 * run.requests,
      `${run.name}: ${ws.unsolicited} copies of others' messages`,
    );
    assert.ok(ws.fanoutMs !== null, `${run.name} timed no fan-out`);
    if (variant !== "deno") continue; // the example apps keep no counters loadlab reads
    const stats = run.targetStats ?? {};
    assert.ok((stats.wsMessagesOut ?? 0) > (stats.wsMessagesIn ?? 0), JSON.stringify(stats));
  }
  const low = runAt(results, variant, 50).ws!.fanoutMs!.p50;
  const high = runAt(results, variant, 800).ws!.fanoutMs?.p50 ?? 0;
  assert.ok(high > low, `${variant}: fan-out p50 ${low} ms at 50 members, ${high} ms at 800`);
}

function assertFinding(results: ResultsFile, stdout: string, variant: string): string {
  const finding = concludeBroadcasts(results).find((f) => f.title === `${variant} / room`);
  assert.ok(finding, `a broadcast finding for ${variant}`);
  const head = `${variant} / room, a room at 50 messages/s swept over 50 to 1,200 members: `;
  assert.ok(finding.sentence.startsWith(head), finding.sentence);
  assert.notEqual(finding.outcome, "no fan-out");
  if (finding.outcome === "knee") {
    // The bend above the knee is a point the generator did not limit (those between are named, not judged).
    const [, knee, above] = finding.sentence.match(/the knee at ([\d,]+) members: above it, at ([\d,]+),/) ??
      [];
    const members = (text: string) => Number(text.replaceAll(",", ""));
    assert.equal(members(knee), finding.kneeMembers, finding.sentence);
    assert.equal(runAt(results, variant, members(above)).generatorBound, false, "a knee the generator made");
    const saturated = finding.saturated ?? "";
    assert.ok(saturated.startsWith(`Above the knee of ${variant} / room (members `), saturated);
  }
  if (finding.outcome === "generator") assert.match(finding.sentence, /generator-bound\): no knee/);
  for (const members of POINTS) {
    const verdict = runVerdict(runAt(results, variant, members));
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
    "preset:chat-capacity --quick: Deno and Node rooms, fan-out by members, the knee only where the server made it",
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
      assert.deepEqual(
        results.runs.map((r) => r.name),
        POINTS.flatMap((n) => VARIANTS.map((v) => `${v}/room/load.connections=${n}`)),
      );
      assert.match(runAt(results, "node", 50).targetInfo?.runtime ?? "", /^(node v|deno .*npm compat)/);
      const sentences = VARIANTS.map((variant) => {
        assertRoom(results, variant);
        return assertFinding(results, out.stdout, variant);
      });
      console.log(sentences.join("\n"));
      await t.step({
        name: "the report opens in chromium, its Findings led by the answers",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(`${dir}/report.html`, async (page) => ({
            first: await page.locator("#findings li.finding").first().textContent(),
            broadcast: await page.locator("#findings li.finding.broadcast").allTextContents(),
          }));
          assert.deepEqual(problems, []);
          assert.equal(value.first, sentences[0]);
          for (const sentence of sentences) assert.ok(value.broadcast.includes(sentence), sentence);
        },
      });
    });
  },
});
