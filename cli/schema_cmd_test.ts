import assert from "node:assert/strict";
import { experimentJsonSchema } from "./schema_cmd.ts";

Deno.test("loadlab schema: valid JSON naming every top-level key, durations described", () => {
  const schema = JSON.parse(JSON.stringify(experimentJsonSchema()));
  assert.equal(schema.$schema, "https://json-schema.org/draft/2020-12/schema");
  const keys = Object.keys(schema.properties);
  for (
    const key of [
      "name",
      "targets",
      "requests",
      "flows",
      "loads",
      "sweeps",
      "grid",
      "search",
      "repeats",
      "warmup",
      "cooldown",
      "order",
      "restart",
      "interval",
      "baseline",
      "thresholds",
      "quick",
      "intervalHistograms",
    ]
  ) assert.ok(keys.includes(key), key);
  assert.deepEqual(schema.required, ["name", "targets", "loads"]);
  assert.equal(schema.additionalProperties, false, "unknown keys are flagged by editors too");
  const duration = schema.$defs.duration;
  assert.equal(duration.type, "string");
  assert.match(duration.description, /a duration with a unit/);
  assert.ok(new RegExp(duration.pattern).test("1m30s") && !new RegExp(duration.pattern).test("10"));
  assert.ok(!JSON.stringify(schema).includes('"expected"'), "validator wording stays out of the schema");
});
