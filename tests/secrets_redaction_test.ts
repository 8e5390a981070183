/**
 * End to end: secrets given to `attack` and `run` reach the target as they are, yet results.json,
 * report.html, the markdown summary, JUnit and the printed JSON hold only `[redacted N chars
 * sha256:…]`, and the report says how many were redacted; `--no-redact` and `redact: false` keep them.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, match as assertMatch, ok } from "node:assert/strict";
import { withTempDir } from "./helpers.ts";
import { freePort } from "../system/ports.ts";
import { readDashboard, startLoadlab } from "./background.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Three cases at once, each against a target of its own: their `loadlab` calls run one at a time, here. */
const pool = testPool(3);

const SECRETS = ["hunter2pw", "s3cr3tTOKEN", "XK999key", "COOKIE77", "QKEY123q"];

/** Answers 200 only when every secret arrived as it is; counts both. */
function checkingTarget() {
  const seen = { good: 0, bad: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const good = req.headers.get("authorization") === "Bearer s3cr3tTOKEN" &&
      req.headers.get("x-api-key") === "XK999key" && req.headers.get("cookie") === "sid=COOKIE77" &&
      url.searchParams.get("api_key") === "QKEY123q";
    good ? seen.good++ : seen.bad++;
    return new Response(good ? "ok" : "no", { status: good ? 200 : 401 });
  });
  return { port: server.addr.port, seen, close: () => server.shutdown() };
}

function leaked(text: string, secrets = SECRETS): string[] {
  return secrets.filter((s) => text.includes(s));
}

function attackArgs(port: number, dir: string): string[] {
  return [
    "attack",
    `http://ada:hunter2pw@127.0.0.1:${port}/x?api_key=QKEY123q&page=1`,
    ..."-H|Authorization: Bearer s3cr3tTOKEN|-H|X-Api-Key: XK999key|-H|Cookie: sid=COOKIE77".split("|"),
    ..."-n 20 -c 1 --json".split(" "),
    ...["-o", `${dir}/results.json`, "--report", `${dir}/report.html`],
  ];
}

pool.test("attack: the target gets the secrets, results, report and --json output do not", async () => {
  const t = checkingTarget();
  try {
    await withTempDir(async (dir) => {
      const r = await loadlabInProcess(attackArgs(t.port, dir));
      assertEquals(r.code, 0, r.stderr);
      assertEquals(t.seen, { good: 20, bad: 0 }, "the engine must send the real secrets");
      const json = await Deno.readTextFile(`${dir}/results.json`);
      const html = await Deno.readTextFile(`${dir}/report.html`);
      assertEquals(leaked(json), []);
      assertEquals(leaked(html), []);
      assertEquals(leaked(r.stdout + r.stderr), []);
      // Length and a short hash stay, so two runs can be told apart.
      assertMatch(json, /\[redacted 18 chars sha256:[0-9a-f]{8}\]/);
      assertMatch(json, /ada:\[redacted 9 chars sha256:[0-9a-f]{8}\]@127\.0\.0\.1/);
      assertMatch(json, /page=1/);
      assertEquals(JSON.parse(json).redaction.secrets, 5);
      assertMatch(html, /5 secrets redacted: URL password, api_key query parameter, Authorization header/);

      // An old or unredacted file re-rendered by `loadlab report` is redacted on render too.
      const kept = await loadlabInProcess([...attackArgs(t.port, dir), "--no-redact", "-q"]);
      assertEquals(kept.code, 0, kept.stderr);
      const raw = await Deno.readTextFile(`${dir}/results.json`);
      assertEquals(leaked(raw), SECRETS, "--no-redact keeps them");
      ok(!("redaction" in JSON.parse(raw)));
      const report = await loadlabInProcess(["report", `${dir}/results.json`, "-o", `${dir}/again.html`]);
      assertEquals(report.code, 0, report.stderr);
      assertEquals(leaked(await Deno.readTextFile(`${dir}/again.html`)), []);
    });
  } finally {
    await t.close();
  }
});

pool.test("attack --dashboard: the live stream carries the redacted results only", async () => {
  const t = checkingTarget();
  try {
    await withTempDir(async (dir) => {
      const args = attackArgs(t.port, dir).filter((a) => a !== "--json");
      args.splice(args.indexOf("-n"), 2, "-R", "20", "-d", "2s");
      const bg = await startLoadlab([...args, "-q", "--dashboard"], /dashboard: (http:\/\/\S+)/);
      const { stream, code, stderr } = await readDashboard(bg);
      assertEquals(code, 0, stderr);
      assertEquals(t.seen.bad, 0);
      assertMatch(stream, /event: snapshot/);
      assertMatch(stream, /\[redacted 18 chars sha256:[0-9a-f]{8}\]/);
      assertEquals(leaked(stream), []);
    });
  } finally {
    await t.close();
  }
});

pool.test("merge: shards written with and without redaction merge into a redacted file", async () => {
  const t = checkingTarget();
  try {
    await withTempDir(async (dir) => {
      const shard = (i: number, extra: string[]) =>
        loadlabInProcess([
          ...attackArgs(t.port, `${dir}/${i}`),
          "-c",
          "2",
          "--segment",
          `${i}/2`,
          "-q",
          ...extra,
        ]);
      for (const i of [0, 1]) await Deno.mkdir(`${dir}/${i}`);
      assertEquals((await shard(0, [])).code, 0);
      assertEquals((await shard(1, ["--no-redact"])).code, 0);
      assertEquals(t.seen.bad, 0);
      const m = await loadlabInProcess(
        [
          "merge",
          `${dir}/0/results.json`,
          `${dir}/1/results.json`,
          "-o",
          `${dir}/m.json`,
          "--report",
          `${dir}/m.html`,
        ],
      );
      assertEquals(m.code, 0, m.stderr);
      const merged = await Deno.readTextFile(`${dir}/m.json`);
      assertEquals(leaked(merged), []);
      assertEquals(leaked(await Deno.readTextFile(`${dir}/m.html`)), []);
      assertEquals(JSON.parse(merged).redaction.secrets, 5);
      assertEquals(JSON.parse(merged).runs[0].requests, 20);
    });
  } finally {
    await t.close();
  }
});

pool.test("run: target env and args, headers and query are redacted in every output, sent as they are", async () => {
  await withTempDir(async (dir) => {
    const port = freePort();
    const app = new URL("./fixtures/secret_app.ts", import.meta.url).pathname;
    const experiment = (redact: boolean) =>
      `name: secrets
targets:
  app:
    kind: external
    command: ${Deno.execPath()}
    args: [run, -A, ${app}, --port, "${port}", --token, ARGTOKEN99]
    env: { API_SECRET: ENVSECRET77 }
    url: http://127.0.0.1:${port}
    ready: { timeoutMs: 20000 }
requests:
  - path: /x
    query: { access_token: QUERYTOK55, page: 2 }
    headers: { Authorization: "Bearer ENVSECRET77", X-Api-Key: ARGTOKEN99 }
loads:
  few: { model: count, requests: 10, connections: 1 }
${redact ? "" : "redact: false\n"}`;
    const secrets = ["ARGTOKEN99", "ENVSECRET77", "QUERYTOK55"];
    await Deno.writeTextFile(`${dir}/e.yaml`, experiment(true));
    const out = `${dir}/out`;
    const r = await loadlabInProcess(
      ["run", `${dir}/e.yaml`, "--out-dir", out, "--summary", `${dir}/s.md`, "--junit", `${dir}/j.xml`],
    );
    assertEquals(r.code, 0, r.stderr);
    const results = JSON.parse(await Deno.readTextFile(`${out}/results.json`));
    assertEquals(results.runs[0].statusCodes, { "200": 10 }, "the target must get the real secrets");
    for (const file of [`${out}/results.json`, `${out}/report.html`, `${dir}/s.md`, `${dir}/j.xml`]) {
      assertEquals(leaked(await Deno.readTextFile(file), secrets), [], file);
    }
    assertEquals(leaked(r.stdout + r.stderr, secrets), []);
    assertMatch(results.experiment.source, /API_SECRET: \[redacted 11 chars sha256:[0-9a-f]{8}\]/);
    ok(results.redaction.kinds.includes("API_SECRET environment variable"), results.redaction.kinds.join());

    await Deno.writeTextFile(`${dir}/e.yaml`, experiment(false));
    const kept = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/kept`]);
    assertEquals(kept.code, 0, kept.stderr);
    assertEquals(leaked(await Deno.readTextFile(`${dir}/kept/results.json`), secrets), secrets);
  });
});

pool.test("run: a secret field of a request's JSON body is redacted in results and report", async () => {
  await withTempDir(async (dir) => {
    // The docs' own login step: the password is a field of the JSON body, not a header.
    await Deno.writeTextFile(
      `${dir}/e.yaml`,
      `name: login
targets:
  plain: { kind: builtin }
flows:
  - name: f
    steps:
      - post: { path: /login, json: { user: ada, credentials: { password: BODYPW1234 }, page: 2 } }
loads:
  short: { model: count, requests: 5, connections: 1 }
`,
    );
    const { code, stdout, stderr } = await loadlabInProcess([
      "run",
      `${dir}/e.yaml`,
      "--out-dir",
      `${dir}/out`,
    ]);
    assertEquals(code, 0, stderr);
    for (const file of ["results.json", "report.html"]) {
      const text = await Deno.readTextFile(`${dir}/out/${file}`);
      assertEquals(leaked(text, ["BODYPW1234"]), [], file);
    }
    const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
    assertMatch(results.experiment.source, /password: \[redacted 10 chars sha256:[0-9a-f]{8}\] \}, page: 2/);
    assertEquals(leaked(stdout + stderr, ["BODYPW1234"]), []);
  });
});

pool.test("attack -b and a step's body: text: secret-named fields of a JSON or form body are redacted", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await withTempDir(async (dir) => {
      const url = `http://127.0.0.1:${server.addr.port}/login`;
      const json = await loadlabInProcess([
        ..."attack -n 2 -c 1 -m POST --json".split(" "),
        url,
        "-b",
        '{"user":"ada","auth":{"password":"BODYPW1111"}}',
        "-o",
        `${dir}/a.json`,
      ]);
      assertEquals(json.code, 0, json.stderr);
      const form = await loadlabInProcess([
        "attack",
        "-n",
        "2",
        "-c",
        "1",
        url,
        "--body=password=FORMPW2222&user=ada",
        "-o",
        `${dir}/b.json`,
      ]);
      assertEquals(form.code, 0, form.stderr);
      await Deno.writeTextFile(
        `${dir}/e.yaml`,
        `name: form
targets:
  mine: { url: "http://127.0.0.1:${server.addr.port}" }
flows:
  - name: f
    steps:
      - post: { path: /login, body: "api_key=FORMKEY3333&page=2" }
loads:
  short: { model: count, requests: 2, connections: 1 }
`,
      );
      const run = await loadlabInProcess(["run", `${dir}/e.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(run.code, 0, run.stderr);
      const secrets = ["BODYPW1111", "FORMPW2222", "FORMKEY3333"];
      for (const file of ["a.json", "b.json", "out/results.json", "out/report.html"]) {
        assertEquals(leaked(await Deno.readTextFile(`${dir}/${file}`), secrets), [], file);
      }
      assertEquals(leaked(json.stdout + form.stdout + run.stdout, secrets), []);
      assertMatch(await Deno.readTextFile(`${dir}/out/results.json`), /page=2/);
    });
  } finally {
    await server.shutdown();
  }
});

pool.test("run of an Artillery script: a variable filled into a secret header is redacted in results and report", async () => {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const good = req.headers.get("authorization") === "Bearer ARTVAR3333";
    return new Response(good ? "ok" : "no", { status: good ? 200 : 401 });
  });
  try {
    await withTempDir(async (dir) => {
      // `bearer` and `qtoken` are no secret names: their values are, being filled into a secret header
      // and a secret query parameter (the converter writes the latter into the URL).
      await Deno.writeTextFile(
        `${dir}/script.yml`,
        `config:
  target: "http://127.0.0.1:${server.addr.port}"
  phases: [{ duration: 1, arrivalRate: 4 }]
  variables:
    bearer: ARTVAR3333
    page: 2
    qtoken: ARTQ4444
scenarios:
  - flow:
      - get: { url: "/x?page={{ page }}", headers: { authorization: "Bearer {{ bearer }}" } }
      - get: { url: "/x?token={{ qtoken }}", headers: { authorization: "Bearer {{ bearer }}" } }
`,
      );
      const run = await loadlabInProcess(["run", `${dir}/script.yml`, "--out-dir", `${dir}/out`]);
      assertEquals(run.code, 0, run.stderr);
      const results = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      assertEquals(results.runs[0].statusCodes, { "200": results.runs[0].requests }, "sent as it is");
      for (const file of ["results.json", "report.html"]) {
        const text = await Deno.readTextFile(`${dir}/out/${file}`);
        assertEquals(leaked(text, ["ARTVAR3333", "ARTQ4444"]), [], file);
      }
      assertMatch(results.experiment.source, /bearer: \[redacted 10 chars sha256:[0-9a-f]{8}\]\n {4}page: 2/);
    });
  } finally {
    await server.shutdown();
  }
});
