import assert from "node:assert/strict";

const assertEquals = (a: unknown, b: unknown) => assert.deepEqual(a, b);
import { type CpuProfile, isCpuProfile, shortUrl, summarizeProfile } from "./cpu_profile.ts";

const frame = (functionName: string, lineNumber = 0) => ({
  functionName,
  url: "file:///app/src/fib.js",
  lineNumber,
});

/** (root) -> main -> fib -> fib (recursion), (root) -> (idle); samples 1 ms apart. */
function profile(samples: number[]): CpuProfile {
  return {
    nodes: [
      { id: 1, callFrame: frame("(root)"), children: [2, 5] },
      { id: 2, callFrame: frame("main", 1), children: [3] },
      { id: 3, callFrame: frame("fib", 9), children: [4] },
      { id: 4, callFrame: frame("fib", 9) },
      { id: 5, callFrame: frame("(idle)") },
    ],
    startTime: 0,
    endTime: (samples.length + 1) * 1000,
    samples,
    timeDeltas: samples.map(() => 1000),
  };
}

Deno.test("self and total time count a recursive function once per sample", () => {
  const s = summarizeProfile(profile([4, 4, 3, 2, 5, 5]));
  const named = (name: string) => s.top.find((t) => s.frames[t.frame].name === name)!;
  assertEquals(named("fib").selfUs, 3000);
  assertEquals(named("fib").totalUs, 3000); // not 5000: the inner fib's samples are already in the outer's
  assertEquals(named("main").selfUs, 1000);
  assertEquals(named("main").totalUs, 4000);
  assertEquals(s.top.some((t) => s.frames[t.frame].name === "(idle)"), false);
  assertEquals(s.idleUs, 2000);
  assertEquals(s.samples, 6);
  assertEquals(s.frames[named("fib").frame], { name: "fib", url: "src/fib.js", line: 10 });
  // root, main, fib, fib, idle: V8's two fib nodes stay two tree levels, one frame.
  assertEquals(s.tree.length, 5);
  assertEquals(s.tree[0][1], -1);
  assertEquals(s.tree[0][2], 6000);
});

Deno.test("the tree drops nodes under the share and stays under the node cap", () => {
  const samples = [...Array(1000).fill(4), 2]; // main alone holds 0.1%
  const s = summarizeProfile(profile(samples), { minShare: 0.005, maxNodes: 3, topCount: 5 });
  assertEquals(s.tree.length <= 3, true);
  assertEquals(s.tree.some(([f, , total]) => s.frames[f].name === "fib" && total > 0), true);
  assertEquals(s.minShare >= 0.005, true);
});

Deno.test("the load's first second and the rest are windows of self time", () => {
  const samples = [...Array(1000).fill(2), ...Array(500).fill(4)];
  const s = summarizeProfile(profile(samples));
  assertEquals(s.windows.map((w) => w.label), ["first second of the load", "after it"]);
  const [first, rest] = s.windows;
  assertEquals(s.frames[first.self[0][0]].name, "main");
  assertEquals(s.frames[rest.self[0][0]].name, "fib");
  assertEquals(first.busyUs + rest.busyUs, 1_500_000);
  // The load started 0.6 s into the profile: its first second is main's last 0.4 s and fib's first 0.5 s.
  const late = summarizeProfile(profile(samples), undefined, 600_000);
  assertEquals([late.windows[0].fromUs, late.windows[0].toUs], [600_000, 1_501_000]);
  assertEquals(late.windows.length, 1);
  assertEquals(late.windows[0].busyUs, 901_000);
});

Deno.test("isCpuProfile tells a profile from other JSON", () => {
  assertEquals(isCpuProfile(profile([2])), true);
  assertEquals(isCpuProfile({ nodes: [] }), false);
  assertEquals(isCpuProfile(null), false);
});

Deno.test("script URLs are shortened to a package path, a runtime's own name or the last two segments", () => {
  assertEquals(
    shortUrl("file:///app/node_modules/express/lib/router/index.js"),
    "npm:express/lib/router/index.js",
  );
  assertEquals(
    shortUrl("file:///a/node_modules/x/node_modules/@koa/router/lib/layer.js"),
    "npm:@koa/router/lib/layer.js",
  );
  assertEquals(
    shortUrl("file:///root/.cache/deno/npm/registry.npmjs.org/hono/4.6.3/dist/hono-base.js"),
    "npm:hono/4.6.3/dist/hono-base.js",
  );
  assertEquals(shortUrl("node:internal/http"), "node:internal/http");
  assertEquals(shortUrl("ext:deno_http/00_serve.ts"), "ext:deno_http/00_serve.ts");
  assertEquals(shortUrl("file:///work/loadlab/targets/app/endpoints.ts"), "app/endpoints.ts");
  assertEquals(shortUrl(""), "");
});
