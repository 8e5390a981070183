/**
 * The control endpoint of a running `loadlab attack --dashboard` and `loadlab steer`, end to end against
 * the built-in target app: without the run's token, with a wrong one, from a foreign page (Origin) or
 * under a foreign Host name the endpoint refuses and nothing changes; a change out of range is a 400 with
 * the reason and changes nothing; `loadlab steer URL rate N` applies, `stop` ends the load early, and
 * results.json records both in `steering`, the run flagged steered.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { createTargetApp } from "../targets/app/app.ts";
import { withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import type { ResultsFile } from "../results/mod.ts";
import { runVerdict } from "../results/conclude/run_verdict.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Each case waits on its `loadlab` children: three at once. */
const pool = testPool(3);

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** `loadlab steer ARGS`: its exit code and output. */
async function steer(...args: string[]) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "steer", ...args],
    env: { NO_COLOR: "1" },
  })
    .output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** A raw request with a Host header of our choosing (fetch sets its own). */
async function rawStatus(url: URL, host: string, token: string): Promise<number> {
  const conn = await Deno.connect({ hostname: url.hostname, port: Number(url.port) });
  await conn.write(new TextEncoder().encode(
    `GET /control HTTP/1.1\r\nHost: ${host}\r\nx-loadlab-token: ${token}\r\nConnection: close\r\n\r\n`,
  ));
  const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
  return Number(text.slice(9, 12));
}

pool.test("control endpoint: token, Host and Origin are checked, a change out of range is 400 and changes nothing; loadlab steer applies", async () => {
  const app = createTargetApp();
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => app.fetch(req));
  await withTempDir(async (dir) => {
    const results = join(dir, "results.json");
    const bg = await startLoadlab(
      [
        "attack",
        `http://127.0.0.1:${target.addr.port}/json`,
        "-R",
        "20",
        "-d",
        "20s",
        "-q",
        "--dashboard",
        "-o",
        results,
      ],
      /dashboard: (http:\/\/\S+)/,
    );
    try {
      const token = new URL(bg.url).searchParams.get("token")!;
      ok(/^[0-9a-f]{64}$/.test(token), `a 32-byte random token in the URL: ${bg.url}`);
      const control = new URL("/control", bg.url);
      const get = (headers: Record<string, string>) =>
        fetch(control, { headers }).then(async (r) => ({ status: r.status, body: await r.json() }));
      const post = (body: unknown, headers: Record<string, string> = { "x-loadlab-token": token }) =>
        fetch(control, {
          method: "POST",
          headers: { ...headers, "content-type": "application/json" },
          body: JSON.stringify(body),
        })
          .then(async (r) => ({ status: r.status, body: await r.json() }));
      // Until the load starts there is nothing to steer.
      while (!(await get({ "x-loadlab-token": token })).body.running) {
        await new Promise((r) => setTimeout(r, 100));
      }

      assertEquals((await get({})).status, 403);
      assertEquals((await post({ action: "pause" }, {})).status, 403);
      assertEquals(
        (await post({ action: "pause" }, { "x-loadlab-token": token.replace(/.$/, "x") })).status,
        403,
      );
      const foreign = await post({ action: "pause" }, {
        "x-loadlab-token": token,
        origin: "http://attacker.example",
      });
      assertEquals(foreign.status, 403);
      ok(/own page/.test(foreign.body.error), foreign.body.error);
      assertEquals(await rawStatus(control, "attacker.example", token), 421);
      const tooFast = await post({ action: "rate", ratePerSec: 2e7 });
      assertEquals(tooFast.status, 400);
      ok(/ratePerSec must be a number > 0 and at most 10000000/.test(tooFast.body.error), tooFast.body.error);
      assertEquals((await post({ action: "connections", connections: 5 })).status, 400);
      assertEquals((await post({ action: "resume" })).body, { error: "not paused" });
      const state = await get({ "x-loadlab-token": token });
      assertEquals([state.body.changes, state.body.paused, state.body.ratePerSec], [[], false, null]);

      const raised = await steer(bg.url, "rate", "60");
      assertEquals(raised.code, 0, raised.stderr);
      ok(/^rate 60\/s at [\d.]+s$/m.test(raised.stdout), raised.stdout);
      const refused = await steer(bg.url, "connections", "3");
      assertEquals(refused.code, 2);
      ok(/refused \(400\): connections apply to the closed model/.test(refused.stderr), refused.stderr);
      const wrongToken = await steer(bg.url.replace(/token=\w+/, "token=0"), "pause");
      assertEquals(wrongToken.code, 2);
      ok(/refused \(403\)/.test(wrongToken.stderr), wrongToken.stderr);
      assertEquals((await steer(bg.url, "stop")).code, 0);
    } finally {
      const end = await bg.done;
      assertEquals(end.code, 0, end.stderr);
      const file: ResultsFile = JSON.parse(await Deno.readTextFile(results));
      const [run] = file.runs;
      assertEquals(run.steering!.map((c) => [c.action, c.ratePerSec, c.by]), [
        ["rate", 60, "terminal"],
        ["stop", undefined, "terminal"],
      ]);
      ok(run.durationSec < 15, `the stop ended the 20 s load early: ${run.durationSec} s`);
      const flag = runVerdict(run).flags.find((f) => f.kind === "steered");
      ok(flag?.label.startsWith("steered: rate 60/s at "), runVerdict(run).label);
      await target.shutdown();
    }
  });
});

pool.test("loadlab steer at a server that is not loadlab's dashboard: says so and exits 2, never 'no load is running'", async () => {
  // Each answer picked by the token the command sends: a foreign JSON API, a web page, a 404.
  const answers: Record<string, () => Response> = {
    json: () => Response.json({ hello: "world" }),
    html: () => new Response("<html>welcome</html>", { headers: { "content-type": "text/html" } }),
    missing: () => new Response("not found", { status: 404 }),
  };
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) => (answers[req.headers.get("x-loadlab-token") ?? ""] ?? answers.missing)(),
  );
  try {
    for (
      const [token, action] of [["json", "status"], ["html", "status"], ["json", "pause"], [
        "missing",
        "status",
      ]]
    ) {
      const r = await steer(`http://127.0.0.1:${server.addr.port}/?token=${token}`, action);
      ok(r.code === 2, `${token} ${action}: exit ${r.code}: ${r.stdout}${r.stderr}`);
      ok(!(r.stdout + r.stderr).includes("no load is running"), r.stdout);
      ok(r.stderr.includes("not loadlab's control endpoint"), r.stderr);
    }
  } finally {
    await server.shutdown();
  }
});

pool.test("loadlab steer reads its value before sending: NaN, hex, empty and full-width digits are exit 2 naming the value, nothing sent", async () => {
  let requests = 0;
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    requests++;
    return Response.json({ error: "should not be asked" }, { status: 400 });
  });
  try {
    const url = `http://127.0.0.1:${server.addr.port}/?token=t`;
    const cases = [
      ["rate", "NaN"],
      ["rate", "0x10"],
      ["rate", ""],
      ["rate", "１０"],
      ["connections", "1.5"],
      [
        "connections",
        "1e3",
      ],
    ];
    for (const [action, value] of cases) {
      const r = await steer(url, action, value);
      ok(r.code === 2, `${action} ${value}: exit ${r.code}: ${r.stdout}${r.stderr}`);
      ok(r.stderr.includes(`${action} ${JSON.stringify(value)}: must be`), r.stderr);
      ok(r.stderr.trim().split("\n").length === 1, r.stderr);
    }
    assertEquals(requests, 0);
  } finally {
    await server.shutdown();
  }
});

pool.test("loadlab steer at a server that never answers or answers without end: exit 2 within its time limit; a file: URL is refused", async () => {
  const silent = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of silent) held.push(conn);
  })().catch(() => {});
  const endless = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    const chunk = new Uint8Array(64 * 1024).fill(0x20);
    const body = new ReadableStream({ pull: (c) => c.enqueue(chunk) });
    return new Response(body, { headers: { "content-type": "application/json" } });
  });
  try {
    for (const port of [(silent.addr as Deno.NetAddr).port, endless.addr.port]) {
      const started = performance.now();
      const r = await steer(`http://127.0.0.1:${port}/?token=t`, "status");
      ok(r.code === 2, `port ${port}: exit ${r.code}: ${r.stdout}${r.stderr}`);
      ok(performance.now() - started < 40_000, `took ${performance.now() - started} ms`);
      ok(r.stderr.trim().split("\n").length === 1 && !r.stderr.includes("    at "), r.stderr);
    }
    const file = await steer("file:///etc/passwd?token=t", "pause");
    ok(file.code === 2 && file.stderr.includes("http"), file.stderr);
  } finally {
    silent.close();
    for (const conn of held) conn.close();
    await endless.shutdown();
  }
});
