/**
 * End to end: an Artillery script with `config.processor` under `loadlab run`, its CommonJS hooks loaded
 * unchanged, against a `Deno.serve` target that records what each request carried. What the target must
 * see follows Artillery 2.0.21's engine_http.js (hooks before templates, captures before afterResponse,
 * `next(err)` ending the virtual user); bench/artillery_verdicts/processor_* compare it with Artillery.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { join } from "node:path";
import { runLoadlab } from "./helpers.ts";

const HOOKS = `
const crypto = require("crypto");
const util = require("node:util");
const fs = require("fs");
const path = require("path");
const skus = fs.readFileSync(path.join(__dirname, "skus.txt"), "utf8").trim().split("\\n");
module.exports = {
  pickSku(context, events, done) {
    // Artillery's context.vars start with the target and the environment.
    const known = context.vars.target.startsWith("http://127.0.0.1") && context.vars.$env.PATH;
    context.vars.sku = known ? skus[0] : "unknown";
    events.emit("counter", "skus.picked", 1);
    return done();
  },
  sign(req, context, events, next) {
    req.headers = { ...req.headers, "x-sig": crypto.createHash("sha256").update(req.url).digest("hex") };
    return next();
  },
  stamp(req, context, events, next) {
    req.headers["x-order"] = util.format("%s-%d", context.vars.sku, 2);
    next();
  },
  async addBody(req, context) {
    req.json = { sku: context.vars.sku, user: "{{ user }}" };
  },
  checkId(req, res, context, events, next) {
    if (JSON.parse(res.body).id !== 7) return next(new Error("id mismatch"));
    events.emit("histogram", "order.id", 7);
    context.vars.seen = res.headers["x-seen"] + context.vars.id;
    next();
  },
  more(context, next) {
    next(context.vars.$loopCount < 3);
  },
  oddRound(context, events, next) {
    context.vars.tag = context.vars.$loopElement;
    return next(context.vars.$loopCount % 2 === 1 ? new Error("odd round") : undefined);
  },
  bare(req, context, events, next) {
    req.headers["x-sig"] = "s";
    next();
  },
};
`;

/** Runs `flow` (YAML under `flow:`) with `hooks`; `id` is what POST /orders answers. */
async function run(
  flow: string,
  id = 7,
  hooks = HOOKS,
  scenario = "beforeRequest: [sign]",
  file = "hooks.js",
  config = "",
) {
  const seen: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    const url = new URL(req.url);
    const sig = req.headers.get("x-sig")?.slice(0, 6) ?? "-";
    seen.push(
      `${req.method} ${url.pathname}${url.search} ${sig} ${req.headers.get("x-order") ?? "-"} ` +
        (await req.text()),
    );
    return Response.json({ id }, { headers: { "x-seen": "yes" } });
  });
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, file), hooks);
    await Deno.writeTextFile(join(dir, "skus.txt"), "A1\nB2\n");
    await Deno.writeTextFile(
      join(dir, "orders.yml"),
      `config:
  target: http://127.0.0.1:${server.addr.port}
  processor: ./${file}
  phases: [{ duration: 1, arrivalCount: 2 }]
  variables: { user: ada }
${config}
scenarios:
  - beforeScenario: pickSku
    ${scenario}
    flow:
${flow}`,
    );
    const r = await runLoadlab(["run", join(dir, "orders.yml"), "--out-dir", join(dir, "out")]);
    const results = r.code === 2
      ? undefined
      : JSON.parse(Deno.readTextFileSync(join(dir, "out/results.json")));
    return { ...r, seen, run: results?.runs[0], results, port: server.addr.port };
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

/** The first 6 hex digits of sha256(text): the x-sig `sign` computes. */
async function sig(text: string) {
  const hash = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(hash)].map((b) => b.toString(16).padStart(2, "0")).join("").slice(0, 6);
}

Deno.test("an Artillery processor's hooks, function steps and whileTrue loop shape each request", async () => {
  const r = await run(`
      - post:
          url: /orders
          headers: { x-order: none }
          beforeRequest: [stamp, addBody]
          capture: { json: $.id, as: id }
          afterResponse: checkId
      - loop:
          - get: { url: "/orders/{{ id }}?round={{ $loopCount }}&seen={{ seen }}" }
        whileTrue: more
`);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  // Hooks see the url before templates are filled: the same signature for every round.
  const base = `http://127.0.0.1:${r.port}`;
  const post = await sig(`${base}/orders`);
  const getSig = await sig(`${base}/orders/{{ id }}?round={{ $loopCount }}&seen={{ seen }}`);
  const session = [
    `POST /orders ${post} A1-2 {"sku":"A1","user":"ada"}`,
    ...[0, 1, 2].map((k) => `GET /orders/7?round=${k}&seen=yes7 ${getSig} - `),
  ];
  assertEquals(r.seen, [...session, ...session]);
  assertEquals(r.run.flows.map((f: { sessions: number; failed: number }) => [f.sessions, f.failed]), [[
    2,
    0,
  ]]);
  assertEquals(r.run.requests, 8);
});

Deno.test("a function step in a loop reads $loopCount and $loopElement; its next(err) ends the user", async () => {
  const r = await run(`
      - loop:
          - function: oddRound
          - get: { url: "/sku/{{ tag }}" }
        over: [a, b, c]
      - get: { url: /never }
`);
  assertEquals(r.code, 0, r.stdout + r.stderr);
  // As Artillery: rounds count from 0, the second (1) fails the user before its request.
  assertEquals(r.seen.map((s) => s.split(" ").slice(0, 2).join(" ")), ["GET /sku/a", "GET /sku/a"]);
  assertEquals(r.run.flows.map((f: { sessions: number; failed: number }) => [f.sessions, f.failed]), [[
    2,
    2,
  ]]);
});

Deno.test("an ES module processor's async hooks run; templates read paths and objects as Artillery's", async () => {
  const esm = `export async function pickSku(context) { context.vars.p = { tags: ["t0"], n: 1 }; }
export async function sign(req, context) { req.headers = { ...req.headers, "x-sig": "esm-ok" }; }`;
  const flow =
    `      - get: { url: "/p/{{ p.tags[0] }}/{{ missing }}", headers: { x-order: "o={{ p }}" } }\n`;
  const r = await run(flow, 7, esm, "beforeRequest: [sign]", "hooks.mjs");
  assertEquals(r.code, 0, r.stdout + r.stderr);
  const seen = 'GET /p/t0/undefined esm-ok o={"tags":["t0"],"n":1} ';
  assertEquals(r.seen, [seen, seen]);
});

Deno.test("what hooks emit is counted as Artillery's: the summary, results.json and ensure rules on it", async () => {
  const ensure = `  plugins: { ensure: {} }
  ensure:
    thresholds: [{ skus.picked: 2 }]
    conditions: [{ expression: "order.id.p99 == 7 and never.sent < 1" }]`;
  const r = await run(
    `      - post: { url: /orders, afterResponse: checkId }\n`,
    7,
    HOOKS,
    "",
    "hooks.js",
    ensure,
  );
  assertEquals(r.code, 1, r.stdout + r.stderr);
  ok(r.stdout.includes("skus.picked: 2\n"), r.stdout);
  assertEquals([r.results.scriptMetrics["skus.picked"], r.results.scriptMetrics["order.id.count"]], [2, 2]);
  const judged = r.results.thresholds.map((t: { expression: string; ok: boolean }) => [t.expression, t.ok]);
  assertEquals(judged, [["skus.picked < 2", false], ["order.id.p99 == 7", true], ["never.sent < 1", false]]);
});

Deno.test("a hook's next(err), or one that throws, ends the virtual user as in Artillery", async () => {
  const r = await run(
    `
      - post: { url: /orders, afterResponse: checkId }
      - get: { url: /after }
`,
    8,
  );
  assertEquals(r.code, 0, r.stdout + r.stderr);
  assertEquals(r.seen.map((s) => s.split(" ")[1]), ["/orders", "/orders"]);
  assertEquals(r.run.flows.map((f: { sessions: number; failed: number }) => [f.sessions, f.failed]), [[
    2,
    2,
  ]]);
  // No headers written on the step nor by a hook before: requestParams.headers is undefined, `bare` throws.
  const thrown = await run(`      - get: { url: /bare, beforeRequest: bare }\n`, 7, HOOKS, "name: bare");
  assertEquals(thrown.seen, []);
  assertEquals(thrown.run.flows[0].failed, 2);
});

Deno.test("a processor's missing npm package, syntax error or whileTrue function is refused before the load", async () => {
  const r = await run(
    `      - get: { url: /a }\n`,
    7,
    `const { faker } = require("@faker-js/faker");\n${HOOKS}`,
  );
  assertEquals(r.code, 2, r.stdout + r.stderr);
  ok(/config\.processor: requires @faker-js\/faker, not found/.test(r.stderr), r.stderr);
  assertEquals(r.seen, []);
  const broken = await run(`      - get: { url: /a }\n`, 7, "module.exports = { a( };");
  ok(/config\.processor: \S+hooks\.js does not compile: Unexpected token/.test(broken.stderr), broken.stderr);
  // Artillery's loop without the function runs without end.
  const loop = await run(`      - loop: [{ get: { url: /a } }]\n        whileTrue: morePages\n`);
  assertEquals(loop.code, 2, loop.stdout + loop.stderr);
  ok(loop.stderr.includes("scenarios[0].flow[0].whileTrue: names no function of config.processor"));
  assertEquals(loop.seen, []);
});
