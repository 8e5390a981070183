import assert from "node:assert/strict";
import type { Issue } from "../validation/mod.ts";
import { ExperimentError } from "./experiment_error.ts";
import { loadPlan } from "./load.ts";
import { readSweepValues } from "./schema/object.ts";

const BASE = `
name: t
targets:
  app: { kind: builtin, tls: self-signed }
loads:
  few: { model: count, requests: 5, connections: 1 }
`;

function planOf(text: string) {
  return loadPlan(text, { preflight: false });
}

async function issuesOf(text: string): Promise<Issue[]> {
  try {
    await planOf(text);
  } catch (err) {
    if (err instanceof ExperimentError) return err.issues;
    throw err;
  }
  assert.fail("expected an ExperimentError");
}

Deno.test("readSweepValues: numbers and durations as before, words for the load fields that take words", () => {
  assert.deepEqual(readSweepValues("load.connections", [1, 10]), { values: [1, 10], problems: [] });
  assert.deepEqual(readSweepValues("load.duration", ["1s", "500ms"]), { values: [1000, 500], problems: [] });
  assert.deepEqual(readSweepValues("query.ms", ["5ms", 7]), { values: [5, 7], problems: [] });
  assert.deepEqual(readSweepValues("load.protocol", ["http1", "h2", "h2c", "auto"]), {
    values: ["http1", "h2", "h2c", "auto"],
    problems: [],
  });
  assert.deepEqual(readSweepValues("load.connection", ["keep-alive", "per-arrival"]).problems, []);
  assert.deepEqual(readSweepValues("load.transport", ["deno", "epoll"]).problems, []);
  assert.deepEqual(readSweepValues("query.mode", ["fast", "slow"]), {
    values: ["fast", "slow"],
    problems: [],
  });
  assert.deepEqual(readSweepValues("target.balance", ["round-robin"]).values, ["round-robin"]);
});

Deno.test("readSweepValues: a bad word, a word for a numeric field, a mix, a duration too long", () => {
  const [bad] = readSweepValues("load.protocol", ["http1", "h4"]).problems;
  assert.equal(bad.index, 1);
  assert.match(bad.message, /"h4" is not a load\.protocol value; use one of http1, h2, h2c, h3, auto/);
  assert.equal(readSweepValues("load.protocol", [2]).problems[0].index, 0);
  const [word] = readSweepValues("load.rate", [100, "fast"]).problems;
  assert.equal(word.index, 1);
  assert.match(
    word.message,
    /"fast" is neither a number nor a duration; load\.rate takes numbers \(words are/,
  );
  const [mixed] = readSweepValues("query.mode", ["fast", 3]).problems;
  assert.equal(mixed.index, null);
  assert.match(mixed.message, /all numbers \(and durations\) or all words; found 3 and "fast"/);
  assert.match(readSweepValues("load.duration", ["9000h"]).problems[0].message, /too long/);
  // A secret parameter's values are quoted as their tokens: the message is printed.
  const [secret] = readSweepValues("query.api_key", ["KEYWORD77", 12345678]).problems;
  assert.equal(
    secret.message.includes("KEYWORD77") || secret.message.includes("12345678"),
    false,
    secret.message,
  );
  assert.match(secret.message, /found \[redacted 8 chars sha256:[0-9a-f]{8}\] and "\[redacted 9 chars/);
});

Deno.test("readSweepValues: a word with a line break, an escape or an invisible character is refused", () => {
  // Each value names its run in the terminal, the findings and every file: "c\r\nrun 9/9 fake" printed a
  // forged line, ESC reached the findings raw, and "a\u200bb" showed as "ab".
  const words = [
    "ok",
    "c\r\nrun 9/9 fake",
    "a\u001b[2Jb",
    "d\u202ee",
    "x\u0000y",
    "a\u200bb",
    "t\tab",
    "l\u2028s",
  ];
  const { problems } = readSweepValues("query.q", words);
  assert.deepEqual(problems.map((p) => p.index), [1, 2, 3, 4, 5, 6, 7]);
  assert.match(
    problems[0].message,
    /^"c\\r\\nrun 9\/9 fake" holds a control, line-break or invisible character .*: write the value without it/,
  );
  assert.deepEqual(readSweepValues("query.q", ["café", "日本", "a b"]).problems, []);
});

Deno.test("plan: a protocol sweep makes one run per word, named and set in the file's order", async () => {
  const plan = await planOf(BASE + "sweeps: [{ parameter: load.protocol, values: [h2, http1] }]\n");
  assert.deepEqual(plan.runs.map((r) => [r.name, r.sweep?.value, r.attack.protocol]), [
    ["app/few/load.protocol=h2", "h2", "h2"],
    ["app/few/load.protocol=http1", "http1", "http1"],
  ]);
  const connection = await planOf(
    BASE + "sweeps: [{ parameter: load.connection, values: [keep-alive, per-arrival] }]\n",
  );
  assert.deepEqual(connection.runs.map((r) => r.attack.connection), ["keep-alive", "per-arrival"]);
  const transport = await planOf(BASE + "sweeps: [{ parameter: load.transport, values: [deno, epoll] }]\n");
  assert.deepEqual(transport.runs.map((r) => r.attack.transport), ["deno", "epoll"]);
});

Deno.test("plan: protocol beside a streams sweep, and in a grid with streams", async () => {
  const two = await planOf(
    BASE.replace("connections: 1", "connections: 1, protocol: h2") +
      "sweeps:\n  - { parameter: load.protocol, values: [http1, h2] }\n  - { parameter: load.streams, values: [1, 10] }\n",
  );
  assert.deepEqual(two.runs.map((r) => [r.attack.protocol, r.attack.streams]), [
    ["http1", undefined],
    ["h2", undefined],
    ["h2", 1],
    ["h2", 10],
  ]);
  const grid = await planOf(
    BASE + "grid: true\nsweeps:\n  - { parameter: load.streams, values: [1, 10] }\n" +
      "  - { parameter: load.protocol, values: [h2, auto] }\n",
  );
  assert.deepEqual(grid.runs.map((r) => r.name), [
    "app/few/load.streams=1/load.protocol=h2",
    "app/few/load.streams=1/load.protocol=auto",
    "app/few/load.streams=10/load.protocol=h2",
    "app/few/load.streams=10/load.protocol=auto",
  ]);
});

Deno.test("plan: the engine's scheme rules judge each run by its target's scheme, not a stand-in", async () => {
  // auto negotiates h2 only over TLS: beside streams it is refused on a plain target, kept on a TLS one.
  const sweep = "sweeps: [{ parameter: load.protocol, values: [h2, auto] }]\n";
  const plain = BASE.replace("tls: self-signed", "instances: 1").replace(
    "connections: 1",
    "connections: 1, streams: 4",
  );
  const refused = await issuesOf(plain + sweep);
  assert.deepEqual(refused.map((i) => i.path), ["loads.few.streams"]);
  assert.match(
    refused[0].message,
    /protocol auto on an http:\/\/ URL .* \(in run app\/few\/load\.protocol=auto\)/,
  );
  const tls = BASE.replace("connections: 1", "connections: 1, streams: 4");
  assert.deepEqual((await planOf(tls + sweep)).runs.map((r) => r.attack.protocol), ["h2", "auto"]);
});

Deno.test("errors: a bad sweep word is exit-2 data at its value, with the allowed values", async () => {
  const issues = await issuesOf(BASE + "sweeps: [{ parameter: load.protocol, values: [http1, h4] }]\n");
  assert.deepEqual(issues.map((i) => i.path), ["sweeps[0].values[1]"]);
  assert.match(issues[0].message, /use one of http1, h2, h2c, h3, auto/);
  const mixed = await issuesOf(BASE + "sweeps: [{ parameter: query.mode, values: [fast, 3] }]\n");
  assert.deepEqual(mixed.map((i) => i.path), ["sweeps[0].values"]);
  // A target field that takes words is checked against the target spec, at the value that set it.
  const balance = await issuesOf(
    BASE.replace("tls: self-signed", "instances: 2") +
      "sweeps: [{ parameter: target.balance, values: [round-robin, bogus] }]\n",
  );
  assert.deepEqual(balance.map((i) => i.path), ["sweeps[0].values[1]"]);
  assert.match(balance[0].message, /round-robin.*least-connections.*reuse-port/);
  // HTTP/1.1 with several streams is refused by the engine's own rule, named at the grid value.
  const grid = await issuesOf(
    BASE + "grid: true\nsweeps:\n  - { parameter: load.protocol, values: [http1, h2] }\n" +
      "  - { parameter: load.streams, values: [1, 10] }\n",
  );
  assert.deepEqual(grid.map((i) => i.path), ["sweeps[1].values[1]"]);
  assert.match(
    grid[0].message,
    /streams apply to HTTP\/2.*in run app\/few\/load\.protocol=http1\/load\.streams=10/,
  );
});

Deno.test("errors: a capacity search cannot bisect a field that takes words", async () => {
  const issues = await issuesOf(
    BASE + "search: { parameter: load.protocol, range: [1, 2], slo: 'p99 < 1s' }\n",
  );
  assert.ok(
    issues.some((i) =>
      i.path === "search.parameter" && /takes words; a search bisects numbers/.test(i.message)
    ),
    JSON.stringify(issues),
  );
});
