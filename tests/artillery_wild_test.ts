/**
 * Forms found in Artillery scripts teams publish (bench/artillery_verdicts/wild_*), run under `loadlab run`
 * against a server in this process that records each body: a JSON field calling a function Artillery lacks
 * (`$randomInt`) is left out as Artillery leaves it out, elsewhere such a call is refused before any load;
 * a list under `config.ensure` checks nothing; an empty `defaults: headers:` sends none. Scripts of the
 * corpus (bench/artillery_verdicts/t12_* and t13_*) run against the bench's app and reach the outcome
 * Artillery gave them, recorded beside loadlab's in t12_outcomes.json and t13_outcomes.json.
 */
import { deepStrictEqual as assertEquals, match } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { argsOf, compareRuns, startApp, type ToolRun, withReport } from "../bench/artillery_verdicts.ts";

/** Runs `config` (indented under `config:`) and `flow` (under `- flow:`) for 2 arrivals in 1 s. */
async function run(config: string, flow: string) {
  const bodies: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    bodies.push(`${new URL(req.url).pathname} ${await req.text()}`);
    return Response.json({ ok: true });
  });
  let result;
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/script.yml`,
        `config:
  target: http://127.0.0.1:${server.addr.port}
  phases: [{ duration: 1, arrivalCount: 2 }]
${config}
scenarios:
  - flow:
${flow}`,
      );
      const r = await runLoadlab(["run", `${dir}/script.yml`, "--out-dir", `${dir}/out`]);
      result = { ...r, output: r.stdout + r.stderr, bodies: bodies.sort() };
    });
  } finally {
    await server.shutdown();
  }
  return result!;
}

Deno.test("artillery wild: a JSON field calling a function Artillery lacks is left out of the body", async () => {
  const r = await run(
    "",
    `      - post:
          url: /signup
          json: { email: "u{{ $randomInt(1, 9) }}@example.com", password: "p", id: "{{ $randomNumber(1, 1) }}" }
`,
  );
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ['/signup {"password":"p","id":"1"}', '/signup {"password":"p","id":"1"}']);
  match(r.output, /json\.email: Artillery has no \$randomInt\(\)/);
});

Deno.test("artillery wild: such a call in a url is refused before any load, naming its key", async () => {
  const r = await run("", "      - get: { url: '/items/{{ $randomInt(1, 9) }}' }\n");
  assertEquals(r.code, 2, r.output);
  match(r.output, /flow\[0\]\.get\.url: \{\{ \$randomInt\(\) \}\}: Artillery has no such function/);
  assertEquals(r.bodies, []);
});

Deno.test("artillery wild: a list under config.ensure checks nothing; empty defaults.headers send none", async () => {
  const r = await run(
    "  plugins: { ensure: {} }\n  ensure:\n    - statusCode: 200\n  defaults:\n    headers:",
    "      - get: { url: /q }\n",
  );
  assertEquals(r.code, 0, r.output);
  match(r.output, /config\.ensure: a list: Artillery checks nothing in it/);
  assertEquals(r.bodies, ["/q ", "/q "]);
});

Deno.test("artillery wild: a `$` name Artillery lacks is undefined in a JSON body, as Artillery renders it", async () => {
  const r = await run(
    "",
    '      - post: { url: /register, json: { id: "{{ $timestamp }}", email: "t{{ $timestamp }}@x" } }\n',
  );
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ['/register {"email":"tundefined@x"}', '/register {"email":"tundefined@x"}']);
  match(r.output, /json\.id: Artillery has no \{\{ \$timestamp \}\}/);
});

Deno.test("artillery wild: `expect` on a scenario checks nothing, as Artillery reads it on a request only", async () => {
  const r = await run("", "      - get: { url: /info }\n    expect:\n      - statusCode: 404\n");
  assertEquals(r.code, 0, r.output);
  assertEquals(r.bodies, ["/info ", "/info "]);
  match(r.output, /scenarios\[0\]\.expect: on a scenario: Artillery checks nothing in it/);
});

/** Scripts of the twelfth trial whose counts no timing or weighted draw moves: one class each, or a mix. */
const TRIAL_12 = [
  "after_response_throws", // a plain afterResponse hook's throw: exit 11, no report
  "before_request_throws", // errors by the hook's message
  "capture_lenient_used", // a strict: false capture read later
  "ensure_codes_fail", // config.ensure without the plugin named: not judged
  "ensure_error_rate_capture", // errors.Failed capture or match
  "if_true_vars", // an ifTrue function that throws sends the request
  "payload_loadall_nofields", // a loadAll payload's rows as lists
  "payload_two_files", // two payloads read a row each per user
  "second_origin", // a request to another origin
  "status_mix_codes", // every status and endpoint counted by its code
  "cookies_jar",
  "loop_count_think",
];

/** Scripts of the thirteenth trial whose counts no timing or weighted draw moves. */
const TRIAL_13 = [
  "selector_attr_index", // selector captures: attr and index, read by cheerio
  "selector_missing", // a selector finding nothing fails the user
  "selector_on_json", // a lenient selector capture on JSON: undefined
  "ensure_max_error_rate", // a session script's refused request counted once, as ECONNREFUSED
  "tls_reject_https_refused", // a TLS handshake failure as EPROTO
  "env_defaults_payload", // -e's phases, default headers and payload
  "overrides_phases_vars", // --overrides phases and variables
  "payload_loadall_named", // a loadAll payload looped over by its name
  "while_true_capture", // whileTrue with a capture in the loop
  "follow_redirect_false_capture", // the 301's location captured
  "gzip_form_data", // gzip, formData and form bodies
  "if_true_loop_count", // ifTrue on $loopCount in a counted loop
];

/** Runs each script of `trial` (`t12`) against the bench's app and compares with Artillery's record. */
async function trialReachesVerdicts(trial: string, names: string[]) {
  const corpus = new URL("../bench/artillery_verdicts/", import.meta.url).pathname;
  const recorded: Record<string, { artillery: ToolRun }> = JSON.parse(
    await Deno.readTextFile(`${corpus}${trial}_outcomes.json`),
  );
  const app = startApp(0);
  try {
    await withTempDir(async (dir) => {
      // The corpus names the bench's port: each copy names this app's.
      for (const f of Deno.readDirSync(corpus)) {
        if (!f.name.startsWith(`${trial}_`)) continue;
        const text = await Deno.readTextFile(corpus + f.name);
        await Deno.writeTextFile(`${dir}/${f.name}`, text.replaceAll("18491", String(app.server.addr.port)));
      }
      for (const name of names.map((n) => `${trial}_${n}.yml`)) {
        app.restartIds();
        const before = app.answered();
        const report = `${dir}/${name}.json`;
        const args = [
          "run",
          `${dir}/${name}`,
          ...argsOf(`${dir}/${name}`),
          "-o",
          report,
          "--out-dir",
          `${dir}/out`,
        ];
        const r = await runLoadlab(args);
        const run = { code: r.code, created: null, failed: null, requests: null, note: "" };
        const loadlab = withReport({ ...run, answered: app.answered() - before }, report);
        const row = compareRuns(name, recorded[name].artillery, loadlab);
        assertEquals(row.at(-1), "same", `${row.join(" | ")}\n${r.stderr}`);
      }
    });
  } finally {
    await app.server.shutdown();
  }
}

Deno.test("artillery corpus: the twelfth trial's scripts reach the verdict Artillery 2.0.21 gave (recorded)", () =>
  trialReachesVerdicts("t12", TRIAL_12));

Deno.test("artillery corpus: the thirteenth trial's scripts reach the verdict Artillery 2.0.21 gave", () =>
  trialReachesVerdicts("t13", TRIAL_13));
