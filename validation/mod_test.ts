import assert from "node:assert/strict";
import { z } from "zod";
import { formatPath, issuesOf, validate } from "./mod.ts";
import { formatIssues } from "./config_error.ts";
import { editDistance, nearest } from "./suggest.ts";

const phase = z.strictObject({
  durationMs: z.number().positive(),
  rampTo: z.number().min(0).optional(),
});
const load = z.discriminatedUnion("model", [
  z.strictObject({ model: z.literal("rate"), phases: z.array(phase).min(1) }),
  z.strictObject({ model: z.literal("count"), requests: z.number().int().positive("must be >= 1") }),
]);
const experiment = z.strictObject({
  name: z.string(),
  loads: z.record(z.string(), load),
  order: z.enum(["interleaved", "sequential"]).default("interleaved"),
  repeats: z.number().int().min(1).default(1),
  value: z.union([z.string(), z.number()]).optional(),
  tags: z.array(z.string()).min(1).optional(),
});

function lines(input: unknown, schema: z.ZodType = experiment): string[] {
  const result = validate(schema, input);
  assert.equal(result.ok, false, "expected the input to be rejected");
  return result.ok ? [] : formatIssues(result.issues);
}

Deno.test("formatPath: dots for names, brackets for indices and odd keys, (root) for none", () => {
  assert.equal(formatPath(["loads", "burst", "phases", 1, "rampTo"]), "loads.burst.phases[1].rampTo");
  assert.equal(formatPath(["targets", "my-app", "port"]), "targets.my-app.port");
  assert.equal(formatPath(["sweeps", 0, "query.ms"]), 'sweeps[0]["query.ms"]');
  // A key's invisible characters are shown escaped, never as the plain key they would look like.
  assert.equal(formatPath(["targets", "a\u200bpp\u202e"]), 'targets["a\\u200bpp\\u202e"]');
  assert.equal(formatPath([0]), "[0]");
  assert.equal(formatPath([]), "(root)");
});

Deno.test("issuesOf: a missing required value says missing and what is expected", () => {
  assert.deepEqual(lines({ loads: { n: { model: "count" } } }), [
    "name: missing; expected a string",
    "loads.n.requests: missing; expected a whole number",
  ]);
});

Deno.test("issuesOf: a type error says what was expected and what was found", () => {
  assert.deepEqual(
    lines({
      name: 3,
      loads: { burst: { model: "rate", phases: [{ durationMs: 1 }, { durationMs: "2s" }] } },
    }),
    ["name: expected a string, found 3", 'loads.burst.phases[1].durationMs: expected a number, found "2s"'],
  );
  assert.deepEqual(lines({ name: "x", loads: {}, repeats: 1.5 }), [
    "repeats: expected a whole number, found 1.5",
  ]);
  assert.deepEqual(lines({ name: "x", loads: {}, value: true }), [
    "value: expected a string or a number, found true",
  ]);
});

Deno.test("issuesOf: unknown keys are reported one by one at their own path with did-you-mean", () => {
  assert.deepEqual(
    lines({ nme: "x", loads: { burst: { model: "rate", phases: [{ durationMs: 1, ramTo: 5 }] } } }),
    [
      "name: missing; expected a string",
      'loads.burst.phases[0].ramTo: unknown key; did you mean "rampTo"?',
      'nme: unknown key; did you mean "name"?',
    ],
  );
  // The member of the discriminated union the object chose decides what is allowed: no "requests" hint
  // for a rate load, and far-off names get the list instead of a guess.
  assert.deepEqual(lines({ name: "x", loads: { a: { model: "count", requests: 1, zzz: 1 } } }), [
    "loads.a.zzz: unknown key; allowed: model, requests",
  ]);
});

Deno.test("issuesOf: enums and discriminators name the choices and the nearest one", () => {
  assert.deepEqual(lines({ name: "x", loads: { a: { model: "cont" }, b: {} }, order: "sequental" }), [
    'loads.a.model: expected one of "rate", "count", found "cont"; did you mean "count"?',
    'loads.b.model: missing; expected one of "rate", "count"',
    'order: expected one of "interleaved", "sequential", found "sequental"; did you mean "sequential"?',
  ]);
});

Deno.test("issuesOf: bounds keep custom messages and reword zod's defaults", () => {
  assert.deepEqual(
    lines({ name: "x", loads: { a: { model: "count", requests: 0 } }, repeats: 0, tags: [] }),
    [
      "loads.a.requests: must be >= 1 (found 0)",
      "repeats: must be >= 1 (found 0)",
      "tags: needs at least 1 item (found a list of 0)",
    ],
  );
});

Deno.test("issuesOf: without the schema or the input it still says missing and names the path", () => {
  const parsed = experiment.safeParse({ loads: { a: { model: "count", requests: "x", extra: 1 } } });
  assert.ok(!parsed.success);
  assert.deepEqual(formatIssues(issuesOf(parsed.error)), [
    "name: missing; expected a string",
    "loads.a.requests: expected a number, found a string",
    "loads.a.extra: unknown key",
  ]);
});

Deno.test("issuesOf: a plain union of objects reports the closest member's own issues", () => {
  const target = z.union([
    z.strictObject({ kind: z.literal("builtin"), instances: z.number().int() }),
    z.strictObject({ url: z.string() }),
  ]);
  assert.deepEqual(lines({ kind: "builtin", instances: "two" }, target), [
    'instances: expected a whole number, found "two"',
  ]);
});

Deno.test("validate: returns the parsed data with defaults on success", () => {
  const result = validate(experiment, { name: "x", loads: {} });
  assert.ok(result.ok);
  assert.equal(result.data.order, "interleaved");
});

Deno.test("nearest: close names only, transpositions count once", () => {
  assert.equal(editDistance("rmapTo", "rampTo"), 1);
  assert.equal(nearest("rampto", ["rampTo", "durationMs"]), "rampTo");
  assert.equal(nearest("conections", ["connections", "requests"]), "connections");
  assert.equal(nearest("xyz", ["connections", "requests"]), undefined);
  assert.equal(nearest("url", ["urls", "uri"]), "urls");
});
