/**
 * @module
 * Truth table, sparse runs: at 1 req/s most 250 ms intervals hold no response, and a short run at 40
 * req/s has responses in every interval but only six of them. The report's stabilization line must say
 * truly why it did not judge (intervals with responses, or intervals at all), and a sparse run that got
 * every answer is ok, served at its requested rate, with nothing drained or unfinished.
 */
import assert from "node:assert/strict";
import { runLoadlab, withTempDir } from "../helpers.ts";
import type { RunResult } from "../../results/mod.ts";

/** `attack` against a local server with `flags`: the run, the report's HTML and the printed summary. */
async function attack(url: string, flags: string[]) {
  let out: { run: RunResult; html: string; stdout: string } | null = null;
  await withTempDir(async (dir) => {
    const r = await runLoadlab([
      "attack",
      url,
      ...flags,
      "--no-live",
      "-o",
      `${dir}/r.json`,
      "--report",
      `${dir}/r.html`,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const run: RunResult = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).runs[0];
    out = { run, html: await Deno.readTextFile(`${dir}/r.html`), stdout: r.stdout };
  });
  return out!;
}

/**
 * The run kept up: its verdict is ok, or, while other processes took a core or more of this machine (the
 * suite's other files), generator-bound by sends the starved generator made late, which it says beside.
 */
function assertKeptUp(r: { stdout: string; run: RunResult }): void {
  const busy = (r.run.hostCpu?.otherCores ?? 0) >= 1;
  assert.match(r.stdout, busy ? /Verdict: (ok|generator-bound)\n/ : /Verdict: ok\n/);
  if (busy) assert.match(r.stdout, /Machine: +other processes took/);
}

Deno.test("sparse runs: the stabilization line says truly what is short, and a run that kept up is ok", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  const url = `http://127.0.0.1:${server.addr.port}/`;
  try {
    const sparse = await attack(url, ["-R", "1", "-d", "2s"]);
    const busy = sparse.run.intervals.filter((iv) => iv.requests > 0).length;
    assert.ok(busy < sparse.run.intervals.length, "most intervals hold no response");
    assert.ok(
      sparse.html.includes(
        `not judged: too few intervals with responses: ${busy} of ${sparse.run.intervals.length}, 8 needed`,
      ),
      "the line counts the intervals with responses",
    );
    assertKeptUp(sparse);
    assert.equal(sparse.run.unfinished ?? 0, 0);

    const short = await attack(url, ["-R", "40", "-d", "1.5s"]);
    const n = short.run.intervals.length;
    assert.ok(short.run.intervals.every((iv) => iv.requests > 0), "every interval answered");
    assert.ok(
      short.html.includes(`not judged: too few intervals: ${n}, 8 needed`),
      "no 'n of n' when all answered",
    );
    assertKeptUp(short);
  } finally {
    await server.shutdown();
  }
});
