/**
 * Sessions from an experiment file to the wire: `data:` files (CSV with RFC 4180 quoting, JSON, NDJSON)
 * read relative to the file, placeholders checked at plan time (exit 2 lines naming the request and the
 * name, the file and the line), and the login-then-/me flow (captured token, the session cookie, data
 * rows) run end to end against the real built-in target on 127.0.0.1. Bounded count loads.
 */
import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { join } from "node:path";
import { loadPlan } from "./load.ts";
import { ExperimentError } from "./experiment_error.ts";
import { readDataFile } from "./data_sources.ts";
import { type PackedRows, rowViews } from "../runner/data_rows.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { createTargetApp } from "../targets/app/app.ts";

const rowStrings = (rows: PackedRows) =>
  Array.from(
    { length: rows.count },
    (_, r) => rowViews(rows, r).map((v) => new TextDecoder().decode(v.slice())),
  );

const dir = Deno.makeTempDirSync({ prefix: "loadlab-sessions-" });
addEventListener("unload", () => Deno.removeSync(dir, { recursive: true }));

function write(name: string, text: string): string {
  const path = join(dir, name);
  Deno.writeTextFileSync(path, text);
  return path;
}

Deno.test("CSV: quoted commas, doubled quotes, line breaks inside quotes, CRLF; errors name the line", () => {
  const table = readDataFile(write("f.csv", 'a,b\r\n"x, y","say ""hi"""\r\n\n"multi\nline",2\n""," é"\n'));
  assertEquals(table.columns, ["a", "b"]);
  assertEquals(rowStrings(table.rows), [["x, y", 'say "hi"'], ["multi\nline", "2"], ["", " é"]]);
  throws(() => readDataFile(write("open.csv", 'a\n"open\n')), /open\.csv:2: a quoted field is not closed/);
  throws(() => readDataFile(write("q.csv", 'a\nx"y\n')), /q\.csv:2: a quote \(\"\) inside an unquoted field/);
  throws(() => readDataFile(write("e.csv", 'a,b\n"x"y,1\n')), /e\.csv:2: a quoted field must end at a comma/);
  throws(
    () => readDataFile(write("short.csv", "user,password\nada,secret\nbob\n")),
    /short\.csv:3: has 1 fields; the header has 2/,
  );
  const json = readDataFile(write("u.json", '[{"user":"ada","n":1},{"user":"bob","n":2}]'));
  assertEquals([json.columns, rowStrings(json.rows)], [["user", "n"], [["ada", "1"], ["bob", "2"]]]);
  throws(
    () => readDataFile(write("u.ndjson", '{"user":"ada"}\n{"name":"bob"}\n')),
    /u\.ndjson:2: line has no "user"/,
  );
  throws(() => readDataFile(join(dir, "missing.csv")), /missing\.csv: no such file/);
});

Deno.test("a column named twice is refused, naming it and the file, instead of the first silently winning", () => {
  throws(
    () => readDataFile(write("twice.csv", "user,password,user\nada,1,bob\n")),
    /twice\.csv:1: column "user" appears twice in the header \(columns 1 and 3\); rename one/,
  );
  throws(
    () => readDataFile(write("fields.csv", "ada,1\n"), { fields: ["id", "id"] }),
    /fields\.csv: column "id" appears twice in fields \(columns 1 and 2\); rename one/,
  );
});

const experiment = (extra = "", data = "users.csv") => `
name: sessions
targets: { app: { kind: builtin } }
data:
  users: { file: ${data}, order: unique }
flows:
  - name: login
    data: users
    steps:
      - post:
          path: /login
          json: { user: "{{ user }}", password: "{{ password }}" }
        capture: [{ json: $.token, as: token }]
        expect: [{ status: 200 }]
      - get:
          path: /me
          headers: { authorization: "Bearer {{ token }}" }
        expect: [{ status: 200 }, { json: $.user, equals: ada }]
${extra}
loads:
  once: { model: count, requests: 10, connections: 2 }
`;

async function issuesOf(text: string, file: string): Promise<string> {
  try {
    await loadPlan(text, { file, preflight: false });
  } catch (err) {
    if (err instanceof ExperimentError) return err.message;
    throw err;
  }
  throw new Error("expected an ExperimentError");
}

Deno.test("plan time: unknown names, missing files, bad rows and unique+wrap are exit-2 lines", async () => {
  write("users.csv", "user,password\nada,secret\n");
  const file = join(dir, "exp.yaml");
  const unknown = experiment().replace("{{ token }}", "{{ tokn }}");
  ok(
    (await issuesOf(unknown, file)).includes(
      "GET /me: {{ tokn }} is unknown: it is not a column of data users, and no earlier step captures it; " +
        "use a data column or an earlier capture's name",
    ),
    await issuesOf(unknown, file),
  );
  ok((await issuesOf(experiment("", "nope.csv"), file)).includes("nope.csv: no such file"));
  write("bad.csv", 'user,password\nada,"secret\n');
  ok((await issuesOf(experiment("", "bad.csv"), file)).includes("bad.csv:2: a quoted field is not closed"));
  const wrap = experiment().replace("order: unique", "order: unique, whenDone: wrap");
  ok(
    (await issuesOf(wrap, file)).includes("whenDone: unique uses each row once"),
    await issuesOf(wrap, file),
  );
  const call = experiment().replace("{{ user }}", "{{ $randomNumber(9,1) }}");
  ok((await issuesOf(call, file)).includes("$randomNumber(min,max) needs integers with min <= max"));
});

Deno.test("login then /me against the built-in target: captured token, session cookie, one user per session", async () => {
  write("users.csv", 'user,password\nada,secret\n"bob, jr",secret\neve,wrong\n');
  const plan = await loadPlan(experiment(), { file: join(dir, "exp.yaml"), preflight: false });
  const seen: string[] = [];
  const { fetch } = createTargetApp();
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    seen.push(`${req.method} ${new URL(req.url).pathname}`);
    return fetch(req);
  });
  try {
    const run = plan.runs[0];
    const r = await runAttack(
      parseAttackConfig({ ...run.attack, url: `http://127.0.0.1:${server.addr.port}` }),
    );
    const [flow] = r.flows!;
    // 3 rows, unique: 3 sessions, then both workers' connections stop; eve's login fails its capture.
    assertEquals([flow.sessions, flow.completed, flow.failed, flow.captureFailed], [3, 2, 1, 1]);
    assertEquals(flow.steps[0].checks, [{ name: "status 200", passed: 2, failed: 1 }]);
    assertEquals(flow.steps[1].checks, [
      { name: "status 200", passed: 2, failed: 0 },
      { name: '$.user == "ada"', passed: 1, failed: 1 },
    ]);
    assertEquals(seen.filter((s) => s === "POST /login").length, 3);
    assertEquals(seen.filter((s) => s === "GET /me").length, 2);
    assertEquals(r.dataRanOutWorkers, 1);
    assertEquals(r.statusCodes, { "200": 4, "401": 1 });
  } finally {
    await server.shutdown();
  }
});
