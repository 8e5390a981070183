/**
 * k6 features run end to end by `loadlab run`: `randomSeed` (each VU's Math.random the seed's sequence),
 * k6/experimental/fs (a file opened in init code, read and sought per VU), a promise's reaction waiting
 * while its VU is blocked in a k6 call, and `responseCallback` on setup()'s and teardown()'s requests.
 * Loads are bounded counts.
 */
import { deepStrictEqual as assertEquals, notDeepStrictEqual, ok } from "node:assert/strict";
import { runK6Text } from "./k6_run.ts";
import { withTarget } from "./helpers.ts";

/** The `draw VU ITER value` lines a run printed, sorted. */
const draws = (text: string) => [...text.matchAll(/draw (\d+ \d+ [\d.e-]+)/g)].map((m) => m[1]).sort();

const seeded = (seed: string) =>
  `import { randomSeed } from "k6";
export const options = { scenarios: { s: { executor: "per-vu-iterations", vus: 2, iterations: 3 } } };
randomSeed(5);
const [a, b] = [Math.random(), (randomSeed(5), Math.random())];
if (a !== b) throw new Error("init code's draws are not seeded");
export default function () {
  if (__ITER === 0) { ${seed} }
  console.log(\`draw \${__VU} \${__ITER} \${Math.random()}\`);
}`;

Deno.test("randomSeed: the calling VU draws the seed's sequence from then on, the same in every run", async () => {
  const [one, again, other, unseeded] = await Promise.all(
    ["randomSeed(42);", "randomSeed(42);", "randomSeed(7);", ""].map((seed) => runK6Text(seeded(seed), null)),
  );
  for (const run of [one, again, other, unseeded]) assertEquals(run.code, 0, run.text);
  const [first, second] = [draws(one.text), draws(again.text)];
  assertEquals(first.length, 6, one.text);
  assertEquals(first, second);
  // Both VUs seeded alike draw alike; unseeded (init code's seed does not reach them, as k6's) they differ.
  const byIter = (lines: string[], vu: string) =>
    lines.filter((l) => l.startsWith(vu)).map((l) => l.slice(2));
  assertEquals(byIter(first, "1 "), byIter(first, "2 "));
  notDeepStrictEqual(byIter(first, "1 "), byIter(draws(other.text), "1 "));
  notDeepStrictEqual(byIter(draws(unseeded.text), "1 "), byIter(draws(unseeded.text), "2 "));
});

Deno.test("options.randomSeed is none of k6's options: warned of and ignored, as k6 does", async () => {
  const { code, text } = await runK6Text(
    `export const options = { iterations: 1, randomSeed: 3 };
export default function () {}`,
    null,
  );
  assertEquals(code, 0, text);
  ok(text.includes("options.randomSeed: none of k6's options"), text);
});

Deno.test("a promise's reaction waits while its VU is blocked in a k6 call, as k6 runs it once the VU is free", () =>
  withTarget(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export default function () {
  const order = [];
  http.asyncRequest("GET", "http://app.test/json").then(() => order.push("then"));
  http.get("http://app.test/sleep?ms=150");
  order.push("get");
  http.get("http://app.test/sleep?ms=50");
  check(order, { "reaction after the blocked calls": (o) => o.join() === "get" });
  setTimeout(() => check(order, { "reaction ran": (o) => o.join() === "get,then" }), 0);
}`,
      url,
    );
    assertEquals(code, 0, text);
    ok(/checks_succeeded[ .:]*100\.00%\s+4 out of 4/.test(text), text);
  }));

Deno.test("k6/experimental/fs: a file opened in init code, each VU reading and seeking it at its own offset", async () => {
  const { code, text } = await runK6Text(
    `import { check } from "k6";
import { open, SeekMode } from "k6/experimental/fs";
import { ReadableStream } from "k6/experimental/streams";
const file = await open("data/words.txt");
export const options = {
  scenarios: { s: { executor: "per-vu-iterations", vus: 2, iterations: 2 } },
  thresholds: { checks: ["rate==1"] },
};
export default async function () {
  const info = await file.stat();
  const buffer = new Uint8Array(4);
  // Each VU reads at its own offset; k6 counts SeekMode.End from the last byte.
  const n = await file.read(buffer);
  const word = String.fromCharCode(...buffer.subarray(0, n)); // k6 has no TextDecoder
  const last = await file.seek(0, SeekMode.End);
  const tail = new Uint8Array(8);
  const [one, end] = [await file.read(tail), await file.read(tail)];
  await file.seek(__ITER === 0 ? 4 : 0, SeekMode.Start);
  const stream = new ReadableStream({ start(c) { c.enqueue(word); c.close(); } });
  const { value } = await stream.getReader().read();
  check(info, {
    "stat": (i) => i.name === "words.txt" && i.size === 10,
    "read": () => word === (__ITER === 0 ? "abcd" : "efgh"),
    "end": () => last === 9 && one === 1 && end === null && value === word,
  });
}`,
    null,
    [],
    { files: { "data/words.txt": "abcdefghi\n" } },
  );
  assertEquals(code, 0, text);
  ok(/checks_succeeded[ .:]*100\.00%\s+12 out of 12/.test(text), text);
});

Deno.test("k6/experimental/streams: a stream pulling a file's chunks reads at its VU's offset", async () => {
  const { code, text } = await runK6Text(
    `import { check } from "k6";
import { open } from "k6/experimental/fs";
import { ReadableStream } from "k6/experimental/streams";
const file = await open("words.txt");
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export default async function () {
  const stream = new ReadableStream({
    async pull(c) {
      const into = new Uint8Array(3), n = await file.read(into);
      n === null ? c.close() : c.enqueue(String.fromCharCode(...into.subarray(0, n)));
    },
  });
  let text = "";
  for (const reader = stream.getReader();;) {
    const { done, value } = await reader.read();
    if (done) break;
    text += value;
  }
  check(text, { "whole once": (t) => t === (__ITER === 0 ? "abcdefghi\\n" : "") });
}`,
    null,
    [],
    { files: { "words.txt": "abcdefghi\n" } },
  );
  assertEquals(code, 0, text);
  ok(/checks_succeeded[ .:]*100\.00%\s+2 out of 2/.test(text), text);
});

Deno.test("k6/experimental/fs: open() after the init code rejects at its line, as k6's", async () => {
  const { code, text } = await runK6Text(
    `import { open } from "k6/experimental/fs";
export default async function () {
  await open("x.txt");
}`,
    null,
    ["-i", "1"],
  );
  assertEquals(code, 0, text);
  ok(text.includes(`open("x.txt") after the script's init code`), text);
});

Deno.test("a request's own responseCallback in setup() and teardown() judges its answers, as in iterations", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
export const options = {
  iterations: 2,
  thresholds: {
    http_req_failed: ["rate==0"],
    "http_req_failed{name:gone}": ["rate==0"],
    "http_reqs{expected_response:true}": ["count==4"],
  },
};
const gone = { tags: { name: "gone" }, responseCallback: http.expectedStatuses(400) };
export function setup() { http.get("http://app.test/validate?id=x", gone); }
export default function () { http.get("http://app.test/json"); }
export function teardown() { http.get("http://app.test/validate?id=y", gone); }`,
      url,
    );
    assertEquals(code, 0, text);
    const run = results.runs[0];
    assertEquals(run.successRate, 1);
    // Each hook's requests carry its group, as k6 tags them, so each is an endpoint of its own.
    const own = run.endpoints.map((
      e: { name: string; expectedStatuses?: unknown; tags?: { group?: string } },
    ) => [e.name, e.tags?.group, e.expectedStatuses]);
    assertEquals(own, [
      ["GET /json", undefined, undefined],
      ["gone", "::setup", [[400, 400]]],
      ["gone", "::teardown", [[400, 400]]],
    ]);
  }));
