import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { autoCores, targetSpecSchema } from "./spec.ts";

Deno.test("autoCores leaves the last core to the load generator, and at least one instance on core 0", () => {
  assertEquals(autoCores(1), { instances: 1, cpuAffinity: [0] });
  assertEquals(autoCores(2), { instances: 1, cpuAffinity: [0] });
  assertEquals(autoCores(4), { instances: 3, cpuAffinity: [0, 1, 2] });
  assertEquals(autoCores(8).instances, 7);
});

Deno.test("the built-in spec takes instances and cpuAffinity as numbers or auto", () => {
  const spec = { kind: "builtin", instances: "auto", cpuAffinity: "auto" };
  assertEquals(targetSpecSchema.parse(spec), spec);
  assertEquals(targetSpecSchema.safeParse({ kind: "builtin", instances: "many" }).success, false);
  assertEquals(targetSpecSchema.safeParse({ kind: "builtin", cpuAffinity: [] }).success, false);
});
