import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { argsWithInspect, autoCores, profileBlocker, targetSpecSchema } from "./spec.ts";

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

Deno.test("the inspector flag goes where node and deno read it; other commands cannot be profiled", () => {
  const flag = "--inspect=127.0.0.1:9";
  assertEquals(argsWithInspect("node", ["app.js"], flag), [flag, "app.js"]);
  assertEquals(argsWithInspect("/usr/bin/nodejs", ["app.js", "--port=1"], flag), [
    flag,
    "app.js",
    "--port=1",
  ]);
  assertEquals(argsWithInspect("deno", ["run", "-A", "app.ts"], flag), ["run", flag, "-A", "app.ts"]);
  assertEquals(argsWithInspect("/opt/deno", ["serve", "app.ts"], flag), ["serve", flag, "app.ts"]);
  assertEquals(argsWithInspect("deno", ["task", "start"], flag), null);
  assertEquals(argsWithInspect("sh", ["-c", "node app.js"], flag), null);
  assertEquals(profileBlocker({ command: "node", args: ["a.js"] }), null);
  assertEquals(profileBlocker({ command: "python3" })?.includes("node or deno"), true);
  assertEquals(profileBlocker({ command: "deno", args: ["task", "x"] })?.includes("deno run"), true);
});
