/**
 * `artillery run`'s own flags on an Artillery script under `loadlab run`: `-e`, `-t`, `-q`, `--overrides`,
 * `--variables`, `-c`, `-s` take Artillery's meanings (not loadlab's variable, duration and k6 flags of the
 * same letters), `-o` writes Artillery's report and the cloud flags are refused, each against a counting
 * server in this process.
 * The script's own target refuses connections, so a request the server counts went where a flag sent it.
 */
import { deepStrictEqual as assertEquals, match, ok } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

/** A server counting each path it answers, and the script of two arrivals whose target is port 1's. */
async function run(args: string[], environments = "{}") {
  const byPath: Record<string, number> = {};
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    byPath[path] = (byPath[path] ?? 0) + 1;
    return new Response("ok");
  });
  const here = `http://127.0.0.1:${server.addr.port}`;
  let result;
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/script.yml`,
        `config:
  target: http://127.0.0.1:1
  phases: [{ duration: 1, arrivalCount: 2 }]
  variables: { path: /base }
  environments: ${environments.replaceAll("HERE", here)}
scenarios:
  - flow:
      - get: { url: "{{ path }}", name: alpha }
      - get: { url: /b, name: beta }
`,
      );
      const given = args.map((a) => a.replaceAll("HERE", here).replaceAll("DIR", dir));
      const r = await runLoadlab(["run", `${dir}/script.yml`, ...given, "--out-dir", `${dir}/out`]);
      const report = await Deno.readTextFile(`${dir}/report.json`).then(JSON.parse, () => undefined);
      result = { ...r, output: r.stdout + r.stderr, byPath, report };
    });
  } finally {
    await server.shutdown();
  }
  return result!;
}

Deno.test("artillery run flags: -e NAME merges config.environments.NAME into config", async () => {
  const r = await run(["-e", "staging"], '{ staging: { target: "HERE", variables: { path: /staging } } }');
  assertEquals(r.code, 0, r.output);
  assertEquals(r.byPath, { "/staging": 2, "/b": 2 });
});

Deno.test("artillery run flags: an unknown -e NAME is Artillery's warning, the base config runs", async () => {
  const r = await run(["--environment", "nope", "-t", "HERE"], "{ staging: { variables: { path: /s } } }");
  assertEquals(r.code, 0, r.output);
  match(r.output, /environment nope is set but is not defined in the script/);
  assertEquals(r.byPath, { "/base": 2, "/b": 2 });
});

Deno.test("artillery run flags: -t URL overrides config.target; endpoints print without -q", async () => {
  const r = await run(["-t", "HERE"]);
  assertEquals(r.code, 0, r.output);
  assertEquals(r.byPath, { "/base": 2, "/b": 2 });
  match(r.stdout, /alpha/);
});

Deno.test("artillery run flags: -q prints no endpoint lines", async () => {
  const r = await run(["-q", "--target", "HERE"]);
  assertEquals(r.code, 0, r.output);
  assertEquals(r.byPath, { "/base": 2, "/b": 2 });
  ok(!/alpha/.test(r.stdout), r.stdout);
});

Deno.test("artillery run flags: --overrides merges into the script, -v sets variables", async () => {
  const r = await run(["--overrides", '{"config":{"target":"HERE"}}', "-v", '{"path":"/v"}']);
  assertEquals(r.code, 0, r.output);
  assertEquals(r.byPath, { "/v": 2, "/b": 2 });
});

Deno.test("artillery run flags: -o writes Artillery's report, and bad JSON names its flag", async () => {
  const r = await run(["-o", "DIR/report.json", "-t", "HERE"]);
  assertEquals(r.code, 0, r.output);
  const { aggregate, intermediate } = r.report;
  const counters = ["vusers.created", "vusers.completed", "vusers.failed", "http.requests", "http.codes.200"];
  assertEquals(counters.map((k) => aggregate.counters[k]), [2, 2, 0, 4, 4]);
  assertEquals(
    [aggregate.summaries["http.response_time"].count, intermediate[0].counters["http.responses"]],
    [4, 4],
  );
  ok(aggregate.rates["http.request_rate"] >= 1 && aggregate.period > 0, JSON.stringify(aggregate));
  const json = await run(["--variables", "{path}", "-t", "HERE"]);
  assertEquals(json.code, 2, json.output);
  match(json.stderr, /--variables \{path\}: expected a JSON object/);
  assertEquals(json.byPath, {});
});

Deno.test("artillery run flags: --config merges its file, -s sends one user, --record is refused", async () => {
  const config = await Deno.makeTempFile({ suffix: ".yml" });
  try {
    await Deno.writeTextFile(config, "config: { variables: { path: /c } }\n");
    const r = await run(["-c", config, "--solo", "--count", "2", "-t", "HERE"]);
    assertEquals(r.code, 0, r.output);
    assertEquals(r.byPath, { "/c": 1, "/b": 1 });
  } finally {
    await Deno.remove(config);
  }
  const cloud = await run(["--record", "--key", "k", "-t", "HERE"]);
  assertEquals([cloud.code, cloud.byPath], [2, {}], cloud.output);
  match(cloud.stderr, /--record is for Artillery Cloud runs/);
});

Deno.test("artillery run flags: --dotenv fills {{ $env.NAME }}; the process's environment wins", async () => {
  const env = await Deno.makeTempFile({ suffix: ".env" });
  try {
    await Deno.writeTextFile(env, "LL_DOTENV_PATH=/dotenv\nHOME=/not-home\n");
    const r = await run([
      "--dotenv",
      env,
      "-t",
      "HERE",
      "-v",
      '{"path":"{{ $env.LL_DOTENV_PATH }}{{ $env.HOME }}"}',
    ]);
    assertEquals(r.code, 0, r.output);
    assertEquals(r.byPath, { [`/dotenv${Deno.env.get("HOME")}`]: 2, "/b": 2 });
  } finally {
    await Deno.remove(env);
  }
});

Deno.test("artillery run flags: a failed check of the expect plugin exits 21, as artillery run does", async () => {
  const expecting = (...expect: unknown[]) =>
    JSON.stringify({
      config: { target: "HERE", plugins: { expect: {} } },
      scenarios: [{ flow: [{ get: { url: "/e", expect } }, { get: { url: "/f" } }] }],
    });
  const failed = await run(["--overrides", expecting({ statusCode: 201 })]);
  assertEquals(failed.code, 21, failed.output);
  // A failed expectation ends no virtual user: the next request is sent.
  assertEquals(failed.byPath, { "/e": 2, "/f": 2 });
  // A status list is any of; contentType ignores case; header names are Node's, lower case.
  const headers = [{ hasHeader: "content-length" }, { headerEquals: ["content-length", 2] }];
  const type = { contentType: "Text/Plain;charset=utf-8" };
  const passed = await run(["--overrides", expecting({ statusCode: [404, 200] }, type, ...headers)]);
  assertEquals(passed.code, 0, passed.output);
  for (const expect of [{ contentType: "json" }, { headerEquals: ["content-length", "3"] }]) {
    const r = await run(["--overrides", expecting(expect)]);
    assertEquals(r.code, 21, r.output);
  }
});
