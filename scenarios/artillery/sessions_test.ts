/**
 * Artillery scripts with sessions: `payload` (CSV with `fields`, `order`, `skipHeader`), `capture`
 * (json, header, regexp), `loop` with a count, `think` and `$randomNumber()` convert to data, captures
 * and placeholders, and the converted script runs against a counting built-in target on 127.0.0.1. The
 * cross-check runs the same script with Artillery 2 (`npx --no-install artillery`, never a dependency)
 * against the same counting app and compares requests per endpoint and sessions; it is skipped with
 * the reason when Artillery is not installed, unless CI=true.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "../load.ts";
import { parseAttackConfig } from "../../runner/config.ts";
import { runAttack } from "../../runner/attack.ts";
import { createTargetApp } from "../../targets/app/app.ts";
import { findProgram } from "../../system/path_lookup.ts";

const dir = Deno.makeTempDirSync({ prefix: "loadlab-artillery-sessions-" });
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));
Deno.writeTextFileSync(
  join(dir, "users.csv"),
  "name,pass\nada,secret\nbob,secret\ncarol,secret\ndave,secret\n",
);

const script = (url: string) => `
config:
  target: ${url}
  phases: [{ duration: 1, arrivalCount: 4 }]
  payload:
    path: users.csv
    fields: [user, password]
    order: sequence
    skipHeader: true
scenarios:
  - name: login-me
    flow:
      - post:
          url: /login
          json: { user: "{{ user }}", password: "{{ password }}" }
          capture:
            - { json: $.token, as: token }
            - { header: content-type, as: ctype }
      - loop:
          - get:
              url: /me
              headers: { authorization: "Bearer {{ token }}" }
              capture: { regexp: '"user":"([a-z]+)"', as: who, group: 1 }
        count: 2
      - think: 0.1
      - get: { url: "/json?n={{ $randomNumber(1,9) }}&u={{ who }}" }
`;

/** The built-in target, counting requests per method and path. */
function countingApp() {
  const counts: Record<string, number> = {};
  const { fetch } = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const key = `${req.method} ${new URL(req.url).pathname}`;
    counts[key] = (counts[key] ?? 0) + 1;
    return fetch(req);
  });
  return { url: `http://127.0.0.1:${server.addr.port}`, counts, close: () => server.shutdown() };
}

const EXPECTED = { "POST /login": 4, "GET /me": 8, "GET /json": 4 };

Deno.test("Artillery payload, capture, loop, think and $randomNumber run as sessions", async () => {
  const app = countingApp();
  try {
    const file = join(dir, "script.yml");
    const plan = await loadPlan(script(app.url), { file, preflight: false });
    const run = plan.runs[0];
    const r = await runAttack(parseAttackConfig({ ...run.attack, url: app.url }));
    const [flow] = r.flows!;
    assertEquals([flow.sessions, flow.completed, flow.failed], [4, 4, 0]);
    assertEquals(flow.steps.map((s) => s.label), [
      "POST /login",
      "GET /me",
      "GET /me",
      "GET /json?n={{ $randomNumber(1,9) }}&u={{ who }}",
    ]);
    assertEquals(app.counts, EXPECTED);
    assertEquals(r.statusCodes, { "200": 16 });
  } finally {
    await app.close();
  }
});

/** How to run Artillery: `artillery` on PATH, else `npx --no-install artillery`; null when neither works. */
async function artilleryCommand(): Promise<string[] | null> {
  const onPath = findProgram("artillery");
  for (const argv of [onPath ? [onPath] : null, ["npx", "--no-install", "artillery"]]) {
    if (argv === null) continue;
    try {
      const out = await new Deno.Command(argv[0], {
        args: [...argv.slice(1), "--version"],
        stdout: "null",
        stderr: "null",
      })
        .output();
      if (out.success) return argv;
    } catch {
      // not runnable: try the next way
    }
  }
  return null;
}

Deno.test("cross-check: Artillery 2 and loadlab send the same requests per endpoint and sessions", async (t) => {
  const artillery = await artilleryCommand();
  if (artillery === null) {
    const reason =
      "Artillery not installed (artillery on PATH, or npx --no-install artillery); the cross-check needs it";
    if (Deno.env.get("CI") === "true") throw new Error(reason);
    console.log(`skipped: ${reason}`);
    return;
  }
  const app = countingApp();
  try {
    const file = join(dir, "cross.yml");
    Deno.writeTextFileSync(file, script(app.url));
    const out = await new Deno.Command(artillery[0], {
      args: [...artillery.slice(1), "run", "--quiet", file],
      cwd: dir,
      stdout: "null",
      stderr: "piped",
    }).output();
    ok(out.success, new TextDecoder().decode(out.stderr));
    const byArtillery = { ...app.counts };
    for (const k of Object.keys(app.counts)) delete app.counts[k];
    await t.step("loadlab", async () => {
      const plan = await loadPlan(script(app.url), { file, preflight: false });
      await runAttack(parseAttackConfig({ ...plan.runs[0].attack, url: app.url }));
    });
    assertEquals(app.counts, byArtillery);
    assertEquals(byArtillery, EXPECTED);
  } finally {
    await app.close();
  }
});

const conditions = (url: string) => `
config:
  target: ${url}
  phases: [{ duration: 1, arrivalCount: 4 }]
  variables: { least: 2 }
  payload: { path: users.csv, fields: [user, password], order: sequence, skipHeader: true }
scenarios:
  - flow:
      - post: { url: /login, json: { user: "{{ user }}", password: "{{ password }}" }, capture: { json: $.token, as: token } }
      - get:
          url: /me
          headers: { authorization: "Bearer {{ token }}" }
          capture: { regexp: '"user":"([a-z]+)"', as: who, group: 1 }
      - get: { url: /json, ifTrue: 'who == "ada" or who == "carol"' }
      - get: { url: /, ifTrue: 'not (user == "ada") and least + 1 > 2 and nothing != 1' }
`;

Deno.test("ifTrue on a capture and a payload field is decided per session, as Artillery 2 does", async (t) => {
  const app = countingApp();
  const expected: Record<string, number> = { "POST /login": 4, "GET /me": 4, "GET /json": 2, "GET /": 3 };
  try {
    const file = join(dir, "conditions.yml");
    Deno.writeTextFileSync(file, conditions(app.url));
    const plan = await loadPlan(conditions(app.url), { file, preflight: false });
    const r = await runAttack(parseAttackConfig({ ...plan.runs[0].attack, url: app.url }));
    assertEquals([r.flows![0].sessions, r.flows![0].completed], [4, 4]);
    assertEquals(app.counts, expected);
    const artillery = await artilleryCommand();
    if (artillery === null) return console.log("skipped the Artillery 2 run: Artillery is not installed");
    for (const k of Object.keys(app.counts)) delete app.counts[k];
    await t.step("Artillery 2", async () => {
      const args = [...artillery.slice(1), "run", "--quiet", file];
      const out = await new Deno.Command(artillery[0], { args, cwd: dir, stdout: "null", stderr: "piped" })
        .output();
      ok(out.success, new TextDecoder().decode(out.stderr));
      assertEquals(app.counts, expected);
    });
  } finally {
    await app.close();
  }
});
