import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import type { Issue } from "../../validation/mod.ts";
import { listOrigin, type Origins, type OriginTable, originTable, scriptIssues, tagOrigin } from "./paths.ts";

/** Where a converted path's problem is named: the script's path, or the converted one left as it is. */
const userPath = (table: OriginTable, path: string) =>
  scriptIssues([], [{ path, message: "m" }], table)[0].path;
import { ExperimentError } from "../experiment_error.ts";
import { type LoadPlanOptions, loadRunnable } from "../load.ts";

/** Words a line uses when it says how to fix the problem (a subset of tests/bad_input_test.ts's). */
const FIX = /e\.g\.|must|expected|use |give |write |drop|needs|move /i;

/** Every problem `loadlab run` reports for a script, in the order it prints them. */
async function problems(text: string, opts: LoadPlanOptions = {}): Promise<Issue[]> {
  try {
    await loadRunnable(text, { file: "s.yml", preflight: false, ...opts });
  } catch (err) {
    if (!(err instanceof ExperimentError)) throw err;
    for (const line of err.message.split("\n")) assert(line.startsWith("s.yml: "), line);
    for (const issue of err.issues) assert(FIX.test(issue.message), `says the fix: ${issue.message}`);
    return err.issues;
  }
  throw new Error("expected an ExperimentError");
}

const pathsOf = (issues: Issue[]) => issues.map((i) => i.path);

Deno.test("one run names the conversion's problems and the experiment's together, at the script's paths", async () => {
  const issues = await problems(`
config:
  target: "http://127.0.0.1:8080"
  phases:
    - duration: 2
      arrivalRate: -3
scenarios:
  - flow:
      - get:
          url: "/x"
          headers:
            Content-Length: "5"
      - think: abc
`);
  // The think it could not read is not named again as the step the schema finds incomplete.
  assertEquals(pathsOf(issues), [
    "config.phases[0].arrivalRate",
    "scenarios[0].flow[1].think",
    "scenarios[0].flow[0].get.headers.Content-Length",
  ]);
  assert(/drop the header/.test(issues[2].message), issues[2].message);
});

Deno.test("an engine: ws script's phase, steps and what its flow's checks find, in one run", async () => {
  const issues = await problems(`
config:
  target: "ws://127.0.0.1:8080/ws"
  phases:
    - { duration: 0, arrivalRate: 5 }
scenarios:
  - engine: ws
    flow:
      - send: hello
      - send: { payload: hi, match: { regexp: "(" } }
      - loop:
          - wait: { capture: { json: "$..a", as: a } }
        count: 3
      - think: -1
`);
  // A phase of 0 seconds gets no rate: that hole is not a second problem at arrivalRate.
  assertEquals(pathsOf(issues), [
    "config.phases[0].duration",
    "scenarios[0].flow[3].think",
    "scenarios[0].flow[1].send.match.regexp",
    "scenarios[0].flow[2].loop[0].wait.capture.json",
  ]);
});

Deno.test("an engine: ws flow's problems and its phases' are named together", async () => {
  const issues = await problems(`
config:
  target: "ws://127.0.0.1:8080/ws"
  phases:
    - { duration: 10, arrivalRate: 5, maxVusers: 2 }
    - { duration: 10, arrivalRate: 1000000000, maxVusers: 3 }
scenarios:
  - engine: ws
    flow:
      - loop: [{ send: hello }]
`);
  assertEquals(pathsOf(issues), [
    "scenarios[0].flow[0].loop",
    "config.phases[1].arrivalRate",
  ]);
});

Deno.test("what only the experiment's checks find is named where the script wrote it", async () => {
  const issues = await problems(`
config:
  target: "http://127.0.0.1:8080/api"
  defaults: { headers: { Content-Length: "3" } }
  phases: [{ duration: 10, arrivalRate: 5 }]
scenarios:
  - flow:
      - loop:
          - post: { url: /x, json: { a: 1 }, capture: { json: "$..a", as: tok } }
          - think: 1
        count: 3
  - weight: 0
    flow: [{ get: { url: /z } }]
  - flow: [{ head: { url: /z, headers: { Transfer-Encoding: chunked } } }]
`);
  // Each problem once: a loop's three copies are one step of the script, every request one default header.
  assertEquals(pathsOf(issues), [
    "config.defaults.headers.Content-Length",
    "scenarios[0].flow[0].loop[0].post.capture.json",
    "scenarios[2].flow[0].head.headers.Transfer-Encoding",
  ]);
});

Deno.test("the engine's and this machine's checks after planning name the script's paths too", async () => {
  const script = (http: string, cap: number) => `
config:
  target: "http://127.0.0.1:8080"
  http: ${http}
  phases: [{ duration: 10, arrivalRate: 5, maxVusers: ${cap} }]
scenarios:
  - flow: [{ get: { url: /z } }]
`;
  assertEquals(pathsOf(await problems(script("{ timeout: 0 }", 5))), ["config.http.timeout"]);
  const limited = await problems(script("{ timeout: 1 }", 5000), { preflight: true, openFileLimit: 256 });
  assertEquals(pathsOf(limited), ["config.phases[0].maxVusers"]);
  assertEquals(pathsOf(await problems(script("{ timeout: 1 }", 0))), ["config.phases[0].maxVusers"]);
  // A --set value is no part of the script: its problem keeps the path the flag named.
  assertEquals(pathsOf(await problems(script("{ timeout: 1 }", 5), { set: ["repeats=0"] })), ["repeats"]);
});

Deno.test("userPath: the longest tagged prefix, its tail kept only where the part mirrors the script", () => {
  const origins: Origins = new WeakMap();
  const headers = tagOrigin(origins, { "x-a": "1" }, { at: "s[0].get.headers", mirrors: true });
  const request = tagOrigin(origins, { path: "/", headers }, {
    at: "s[0].get",
    keys: { path: "s[0].get.url" },
  });
  const steps = tagOrigin(origins, [request, undefined], listOrigin("s[0]", ["s[0].a", "s[0].b"]));
  const table = originTable({ steps }, origins);
  assertEquals(userPath(table, "steps[0].headers.x-a"), "s[0].get.headers.x-a");
  assertEquals(userPath(table, "steps[0].path"), "s[0].get.url");
  assertEquals(userPath(table, "steps[0].query.q"), "s[0].get");
  assertEquals(userPath(table, "steps[1]"), "s[0].b");
  assertEquals(userPath(table, "steps10"), "steps10");
  assertEquals(userPath(table, "repeats"), "repeats");
  // A step left without a value where the script already has a problem is that problem, not another.
  const found = [{ path: "steps[1]", message: "expected a step" }, { path: "steps[0].path", message: "bad" }];
  assertEquals(scriptIssues([{ path: "s[0].b.think", message: "expected seconds" }], found, table), [
    { path: "s[0].b.think", message: "expected seconds" },
    { path: "s[0].get.url", message: "bad" },
  ]);
});
