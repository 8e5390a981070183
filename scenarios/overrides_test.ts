import assert from "node:assert/strict";
import { applyOverrides, deepMerge, setPath, splitPath } from "./overrides.ts";
import { parseDocument } from "./yaml_document.ts";

Deno.test("splitPath: keys with dots and [index]; malformed paths are refused", () => {
  assert.deepEqual(splitPath("loads.open.phases[1].rate"), ["loads", "open", "phases", 1, "rate"]);
  assert.deepEqual(splitPath("repeats"), ["repeats"]);
  for (const bad of ["", ".a", "a.", "a..b", "[1]", "a[x]", "a[1]b"]) {
    assert.equal(splitPath(bad), undefined, bad);
  }
});

Deno.test("setPath: values read as YAML; keys with dots (target names) resolved by the longest match", async () => {
  const doc: Record<string, unknown> = {
    targets: { "app.v2": { kind: "builtin" } },
    sweeps: [{ values: [1] }],
  };
  assert.equal(await setPath(doc, "targets.app.v2.instances=3"), undefined);
  assert.equal(await setPath(doc, "sweeps[0].values=[1, 2]"), undefined);
  assert.equal(await setPath(doc, "description=a b"), undefined);
  assert.deepEqual(doc, {
    targets: { "app.v2": { kind: "builtin", instances: 3 } },
    sweeps: [{ values: [1, 2] }],
    description: "a b",
  });
  assert.match((await setPath(doc, "sweeps.values=1")) ?? "", /sweeps is a list; use \[index\]/);
  assert.match((await setPath(doc, "targets[0]=1")) ?? "", /targets is an object; use \.key/);
});

Deno.test("deepMerge: objects merge key by key, lists replace", () => {
  assert.deepEqual(
    deepMerge({ a: { b: 1, c: [1, 2] }, d: 1 }, { a: { c: [3] }, e: 2 }),
    { a: { b: 1, c: [3] }, d: 1, e: 2 },
  );
});

Deno.test("deepMerge: null removes a key, so quick: can leave out targets or loads", async () => {
  assert.deepEqual(
    deepMerge({ targets: { a: { kind: "builtin" }, b: { kind: "builtin" } }, d: 1 }, {
      targets: { b: null },
    }),
    { targets: { a: { kind: "builtin" } }, d: 1 },
  );
  const doc = { loads: { x: { model: "count" }, y: { model: "count" } }, quick: { loads: { y: null } } };
  const result = await applyOverrides(doc, { quick: true });
  assert.ok(result.ok);
  assert.deepEqual(Object.keys((result.value as typeof doc).loads), ["x"]);
});

Deno.test("applyOverrides: leaves the input untouched and reports every problem at once", async () => {
  const doc = { repeats: 3, targets: { a: { kind: "builtin" } } };
  const result = await applyOverrides(doc, { set: ["nope.x=1", "repeats=2"], targets: { b: "http://x:1" } });
  assert.deepEqual(doc.repeats, 3);
  assert.ok(!result.ok);
  assert.deepEqual(result.issues.map((i) => i.path), ["--set nope.x=1", "--target b=http://x:1"]);
});

Deno.test("reserved words: --set and --target never reach Object.prototype", async () => {
  const doc = { targets: { t: { url: "http://x/" } }, repeats: 1 };
  assert.match((await setPath(doc, "__proto__.polluted=1"))!, /"__proto__" is a reserved word/);
  assert.match((await setPath(doc, "targets.constructor.prototype.polluted=1"))!, /reserved word/);
  const replaced = await applyOverrides(doc, {
    targets: Object.fromEntries([["__proto__", "http://127.0.0.1:1/"]]),
  });
  assert.equal(replaced.ok, false);
  assert.equal(({} as Record<string, unknown>).polluted, undefined, "Object.prototype untouched");
  assert.equal(Object.getPrototypeOf(doc.targets), Object.prototype);
});

Deno.test("parseDocument: a key twice in a mapping, __proto__ anywhere and alias bombs are one issue each", async () => {
  const twice = await parseDocument("name: a\nloads:\n  x: 1\n  y: 2\n  x: 3\n");
  assert.deepEqual(twice.ok ? [] : twice.issues, [{
    path: "line 5, column 3",
    message: 'not valid YAML or JSON: the key "x" must appear once in its mapping; keep one of them',
  }]);
  const proto = await parseDocument("targets:\n  __proto__: { url: 'http://x/' }\n");
  assert.deepEqual(proto.ok ? [] : proto.issues.map((i) => i.path), ["targets.__proto__"]);
  const laughs = ["a: &a [x, x, x, x, x, x, x, x, x, x]"];
  for (const [k, name] of [..."bcdef"].entries()) {
    laughs.push(`${name}: &${name} [${Array(10).fill(`*${"abcdef"[k]}`).join(", ")}]`);
  }
  const bomb = await parseDocument(laughs.join("\n"));
  assert.equal(bomb.ok, false);
  assert.match(bomb.ok ? "" : bomb.issues[0].message, /aliases \(\*name\) expand more than 100 times/);
  const shared = await parseDocument("base: &b { rate: 1 }\nloads:\n  a: *b\n  c: *b\n");
  assert.equal(shared.ok, true, "a few aliases still work");
  // A merge key (YAML 1.1's `<<`) takes the anchor's fields under the mapping's own.
  const merged = await parseDocument("a: &b { x: 1, y: 2 }\nc: { <<: *b, y: 3 }\n");
  assert.deepEqual(merged.ok ? merged.value : merged.issues, { a: { x: 1, y: 2 }, c: { x: 1, y: 3 } });
  // An alias inside its own anchor: a value containing itself, which every later walk would recurse into.
  for (const [text, path] of [["x: &a [*a]", "x[0]"], ["t: &t { a: 1, self: *t }", "t.self"]]) {
    const cycle = await parseDocument(text);
    assert.deepEqual(
      cycle.ok ? [] : cycle.issues.map((i) => [i.path, /refers to its own anchor/.test(i.message)]),
      [
        [path, true],
      ],
    );
  }
});

Deno.test("--profile: profile: cpu on every started target and an inline upstream, never on a url target", async () => {
  const doc = {
    targets: {
      a: { kind: "builtin" },
      b: { kind: "proxy", upstream: { kind: "example", app: "koa" } },
      c: { url: "http://127.0.0.1:1" },
      d: { kind: "proxy", upstream: "a" },
    },
  };
  const result = await applyOverrides(doc, { profile: true });
  assert.ok(result.ok);
  assert.deepEqual((result.value as typeof doc).targets, {
    a: { kind: "builtin", profile: "cpu" },
    b: { kind: "proxy", profile: "cpu", upstream: { kind: "example", app: "koa", profile: "cpu" } },
    c: { url: "http://127.0.0.1:1" },
    d: { kind: "proxy", upstream: "a", profile: "cpu" },
  });
  assert.equal((doc.targets.a as Record<string, unknown>).profile, undefined, "the input is not changed");
});

Deno.test("applyOverrides: a --set problem quotes a secret value (given or found in the file) as its token", async () => {
  const doc = {
    targets: { t: { env: { API_TOKEN: "FILESECRET1", PORT: "80" } } },
    loads: { l: { connections: 1 } },
  };
  const result = await applyOverrides(doc, {
    set: [
      "targets.t.env.API_TOKEN.x=1",
      "targets.t.env.PORT.x=1",
      "loads.l.connections.authorization=Bearer GIVEN22",
      "loads.l.connections.x=3",
    ],
  });
  assert.ok(!result.ok);
  const lines = result.issues.map((i) => `${i.path}: ${i.message}`);
  assert.match(lines[0], /API_TOKEN is \[redacted 11 chars sha256:[0-9a-f]{8}\], not an object/);
  assert.match(lines[1], /PORT is "80", not an object/);
  assert.match(
    lines[2],
    /^--set loads\.l\.connections\.authorization=\[redacted 14 chars sha256:[0-9a-f]{8}\]:/,
  );
  assert.match(lines[3], /^--set loads\.l\.connections\.x=3: loads\.l\.connections is 1,/);
  assert.ok(!lines.join("\n").includes("SECRET1") && !lines.join("\n").includes("GIVEN22"));
});
