import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { rebase } from "./one.ts";

Deno.test("rebase: paths relative to a target's base URL keep its path prefix", () => {
  const attack = {
    model: "connections" as const,
    requestMix: [{ path: "/json?x=1" }, {}],
    flows: [{ name: "f", weight: 1, steps: [{ request: { path: "/a" } }, { thinkMs: 5 }] }],
  };
  assertEquals(rebase(attack, "http://127.0.0.1:3000/app/"), {
    ...attack,
    url: "http://127.0.0.1:3000/",
    requestMix: [{ path: "/app/json?x=1" }, { path: "/app/" }],
    flows: [{ name: "f", weight: 1, steps: [{ request: { path: "/app/a" } }, { thinkMs: 5 }] }],
  });
});

Deno.test("rebase: a base URL without a path only sets the URL", () => {
  const attack = { model: "count" as const, requests: 5, requestMix: [{ path: "/json" }] };
  assertEquals(rebase(attack, "http://127.0.0.1:3000"), { ...attack, url: "http://127.0.0.1:3000/" });
});
