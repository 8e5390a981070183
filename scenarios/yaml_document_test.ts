/**
 * @module
 * The experiment reader's bounds: what would make the YAML parser's memory or time explode (a large
 * file, deep brackets, many anchors or aliases) is refused with the limit and the fix before it parses,
 * and a large file written as JSON is read with the same contract as YAML (duplicate keys, `__proto__`,
 * nesting); JSON of any size reads to the data YAML's reader gives.
 */
import assert from "node:assert/strict";
import { parseDocument } from "./yaml_document.ts";
import {
  MAX_EXPERIMENT_FILE_BYTES,
  MAX_NESTING_DEPTH,
  MAX_YAML_ANCHORS,
  MAX_YAML_BYTES,
} from "../validation/input_limits.ts";
import { loadExperiment } from "./load.ts";
import { parse as parseYaml } from "yaml";

const JSON_HEAD = {
  name: "big",
  targets: { t: { kind: "builtin" } },
  loads: { c: { model: "connections", connections: 1, duration: "1s" } },
};
const HEAD =
  "name: big\ntargets:\n  t: { kind: builtin }\nloads:\n  c: { model: connections, connections: 1, duration: 1s }\n";

/**
 * An experiment whose `requests:` list makes it about `bytes` long (within one request), as YAML or as
 * JSON, and how many requests it has.
 */
function bigExperiment(bytes: number, as: "yaml" | "json"): { text: string; count: number } {
  const line = (i: number) =>
    as === "yaml" ? `  - { path: /api/items/${i}, weight: 1 }\n` : `{"path":"/api/items/${i}","weight":1},`;
  const head = as === "yaml"
    ? `${HEAD}requests:\n`
    : `${JSON.stringify(JSON_HEAD).slice(0, -1)},"requests":[`;
  const lines: string[] = [];
  let size = head.length;
  while (size < bytes) size += (lines[lines.length] = line(lines.length)).length;
  const text = as === "yaml" ? head + lines.join("") : `${head}${lines.join("").slice(0, -1)}]}`;
  return { text, count: lines.length };
}

async function problem(text: string): Promise<string> {
  const parsed = await parseDocument(text);
  assert.ok(!parsed.ok, "refused");
  return parsed.issues.map((i) => `${i.path}: ${i.message}`).join("\n");
}

Deno.test("a YAML file over the YAML cap is refused with the cap and the fix, and read when written as JSON", async () => {
  const yaml = bigExperiment(MAX_YAML_BYTES + 1, "yaml").text;
  assert.ok(yaml.length > MAX_YAML_BYTES);
  assert.match(
    await problem(yaml),
    /over the 1 MiB read as YAML .*write it as JSON \(read up to 4 MiB\) or split it/,
  );
  const json = bigExperiment(MAX_EXPERIMENT_FILE_BYTES - 100, "json");
  assert.ok(json.text.length > MAX_YAML_BYTES && json.text.length <= MAX_EXPERIMENT_FILE_BYTES);
  assert.equal((await loadExperiment(json.text, { file: "big.json" })).requests?.length, json.count);
});

Deno.test("a YAML file at the YAML cap is read as YAML", async () => {
  const { text, count } = bigExperiment(MAX_YAML_BYTES - 100, "yaml");
  assert.ok(text.length <= MAX_YAML_BYTES);
  assert.equal((await loadExperiment(text)).requests?.length, count);
});

Deno.test("a large JSON file keeps the YAML reader's contract: duplicate keys, __proto__, syntax", async () => {
  const pad = " ".repeat(MAX_YAML_BYTES);
  const twice = `{"name": "a",\n  "targets": {"t": {"kind": "builtin"}, "t": {}}}${pad}`;
  assert.equal(
    await problem(twice),
    'line 2, column 41: not valid YAML or JSON: the key "t" must appear once in its mapping; keep one of them',
  );
  // An escaped key is compared as JSON reads it.
  assert.match(await problem(`{"a\\u0062": 1, "ab": 2}${pad}`), /the key "ab" must appear once/);
  assert.match(
    await problem(`{"targets": {"__proto__": {}}}${pad}`),
    /^targets\.__proto__: __proto__ is a reserved word/,
  );
  assert.match(
    await problem(`{"name": }${pad}`),
    /^\(file\): not valid JSON: .*\(a file over 1 MiB is read as JSON only\)$/,
  );
  assert.match(await problem(`[1, 2]${pad}`), /^\(root\): an experiment file is a mapping/);
  // Keys in lists of objects are their own objects' keys, and strings that are values are not keys.
  const fine = await parseDocument(`{"l": [{"k": 1}, {"k": 2}], "v": "k", "w": ["k", "k"]}${pad}`);
  assert.deepEqual(fine, { ok: true, value: { l: [{ k: 1 }, { k: 2 }], v: "k", w: ["k", "k"] } });
});

Deno.test("lists nested past the limit, in brackets, on one line or by indentation, are refused, in YAML and in large JSON", async () => {
  const nested = (n: number) => `${"[".repeat(n)}1${"]".repeat(n)}`;
  assert.deepEqual((await parseDocument(`x: ${nested(MAX_NESTING_DEPTH)}\n`)).ok, true);
  const limit = new RegExp(`must nest at most ${MAX_NESTING_DEPTH} levels deep: flatten them`);
  assert.match(await problem(`x: ${nested(MAX_NESTING_DEPTH + 1)}\n`), limit);
  // A bracket inside a quoted or block scalar is text, not nesting.
  const quoted = `x: "${"[".repeat(100)}"\ny: |\n  ${"{".repeat(100)}\n`;
  assert.deepEqual(await parseDocument(quoted), {
    ok: true,
    value: { x: "[".repeat(100), y: `${"{".repeat(100)}\n` },
  });
  // Compact lists on one line nest as deep for two bytes a level; a flow mapping's keys are no nesting.
  assert.match(
    await problem(`x:\n  ${"- ".repeat(MAX_NESTING_DEPTH + 1)}1\n`),
    /line 2: lists and mappings must nest at most 64 levels/,
  );
  assert.equal((await parseDocument(`x:\n  ${"- ".repeat(MAX_NESTING_DEPTH - 1)}1\n`)).ok, true);
  // Nesting by indentation counts each open level, and a line's indicators on top of them.
  const indented = (n: number) => Array.from({ length: n }, (_, i) => `${" ".repeat(i)}a${i}:\n`).join("");
  assert.equal((await parseDocument(indented(MAX_NESTING_DEPTH) + "x: 1\n")).ok, true);
  assert.match(
    await problem(indented(MAX_NESTING_DEPTH + 1)),
    /^line 65: lists and mappings must nest at most 64/,
  );
  assert.match(await problem(indented(40) + `${" ".repeat(40)}${"- ".repeat(30)}1\n`), /^line 41: /);
  // Siblings and a return to a shallower indentation close the levels they leave.
  const wide = Array.from({ length: 200 }, (_, i) => `${" ".repeat(i % 50)}k${i}:\n`).join("") + "end: 1\n";
  assert.equal((await parseDocument(wide)).ok, true);
  const keys = Array.from({ length: 200 }, (_, i) => `k${i}: ${i}`).join(", ");
  assert.equal((await parseDocument(`x: { ${keys} }\n`)).ok, true);
  // JSON past the YAML cap: 100,000 levels overflowed the stack of the checks after JSON.parse.
  const deep = `{"x": ${nested(100_000)}}${" ".repeat(MAX_YAML_BYTES)}`;
  assert.match(
    await problem(deep),
    new RegExp(`^line 1, column ${6 + MAX_NESTING_DEPTH}: .*${limit.source}`),
  );
});

Deno.test("more anchors or aliases than the limit are refused with the limit and the fix", async () => {
  const anchored = (n: number, aliases: number) =>
    "defs:\n" + Array.from({ length: n }, (_, i) => `  d${i}: &d${i} { a: 1 }\n`).join("") +
    "uses:\n" + Array.from({ length: aliases }, (_, i) => `  - *d${i % n}\n`).join("");
  const read = await parseDocument(anchored(MAX_YAML_ANCHORS, MAX_YAML_ANCHORS));
  assert.ok(read.ok);
  assert.equal((read.value as { uses: unknown[] }).uses.length, MAX_YAML_ANCHORS);
  assert.match(
    await problem(anchored(MAX_YAML_ANCHORS + 1, 0)),
    /more than 1000 anchors \(&name\): write the values out/,
  );
  assert.match(
    await problem(anchored(10, MAX_YAML_ANCHORS + 1)),
    /more than 1000 aliases \(\*name\): write the values out/,
  );
});

Deno.test("valid JSON reads to the data YAML's reader gives: escapes, numbers, tabs, text like YAML's", async () => {
  const texts = [
    `{"a": 1e3, "b": -1E-2, "c": "\\u00e9\\ud83d\\ude00 \\/ \\t", "d": [true, null, 12345678901234567890]}`,
    `{\n\t"name": "tabs",\n\t"loads": {\n\t\t"x": [1, 2]\n\t}\n}`,
    JSON.stringify({ k: "\ud800", f: "x: y # z", g: "&anchor *alias", s: "two\nlines", u: "\u2028'\"" }),
  ];
  for (const text of texts) {
    const read = await parseDocument(text);
    assert.ok(read.ok, text);
    assert.deepEqual(read.value, parseYaml(text, { merge: true }), text);
  }
});
