/**
 * handleSummary that never ends: an asynchronous one whose promise never settles is refused after its bound
 * (k6 bounds it to 2 minutes) instead of holding loadlab open forever after the run; one that throws is
 * named; one that answers in time is written. A handleSummary runs in an isolate of its own, so a loop that
 * never yields is ended with that isolate, not with loadlab.
 */
import { deepStrictEqual as assertEquals, ok, rejects } from "node:assert/strict";
import { isolatedHandleSummary, showK6Summaries } from "./summary.ts";
import type { K6SummaryData } from "../../results/export/k6/summary_text.ts";

const runs = [{
  run: "app/k6",
  data: { metrics: {}, options: { summaryTrendStats: [] } } as unknown as K6SummaryData,
}];

Deno.test("a handleSummary that never settles is refused after its bound; one that throws is named", async () => {
  await rejects(
    showK6Summaries({ runs, failed: 0, handle: () => new Promise(() => {}) }, [], 50),
    /handleSummary\(\) failed: it did not end within 0\.05 s.*results are kept/,
  );
  await rejects(
    showK6Summaries(
      {
        runs,
        failed: 0,
        handle: () => {
          throw new Error("nope");
        },
      },
      [],
      50,
    ),
    /handleSummary\(\) failed: nope/,
  );
  const seen: unknown[] = [];
  await showK6Summaries({ runs, failed: 0, handle: (d) => (seen.push(d), undefined) }, [], 50);
  assertEquals(seen, [runs[0].data]);
});

Deno.test("a handleSummary that never yields runs in an isolate of its own, ended at its bound", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-summary-" });
  const path = `${dir}/script.js`;
  Deno.writeTextFileSync(
    path,
    `export default () => {};
export function handleSummary(data) {
  if (data.spin) while (true) {}
  return { stdout: "runs: " + data.runs };
}
`,
  );
  try {
    const handle = (ms: number) => isolatedHandleSummary(path, ms);
    assertEquals(await handle(60_000)({ runs: 2 }), { stdout: "runs: 2" });
    // In loadlab's own process this loop held it open past its results, for ever.
    const started = performance.now();
    await rejects(handle(3_000)({ spin: true }), /did not end within 3 s \(a loop that never yields/);
    ok(performance.now() - started < 15_000, "ended near its bound");
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("a handleSummary that grows loadlab in a synchronous loop is ended past its memory limit, named", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-summary-" });
  // Up to 1.6 GB (2,000 arrays of 800 KB): a loadlab without the limit still ends, having grown past it.
  Deno.writeTextFileSync(
    `${dir}/script.js`,
    `export default () => {};
export function handleSummary(data) {
  const keep = [];
  if (data.grow) for (let i = 0; i < 2000; i++) keep.push(new Array(1e5).fill(0));
  return { stdout: "kept " + keep.length };
}
`,
  );
  // loadlab is a process of its own here, as it is for a user: test files running beside this one in the
  // test runner's process would move the RSS the limit is measured by. Its limit: 256 MB past what it holds.
  Deno.writeTextFileSync(
    `${dir}/loadlab.ts`,
    `import { isolatedHandleSummary, showK6Summaries } from "${new URL("./summary.ts", import.meta.url)}";
const limitMb = Math.ceil(Deno.memoryUsage().rss / 2 ** 20) + 256;
let peakMb = 0;
const sampler = setInterval(() => peakMb = Math.max(peakMb, Deno.memoryUsage().rss / 2 ** 20), 10);
const handle = isolatedHandleSummary("${dir}/script.js", 60_000, limitMb);
const first = await handle({});
const started = performance.now();
const message = await showK6Summaries({ runs: [{ run: "app/k6", data: { grow: true, metrics: {}, options: { summaryTrendStats: [] } } }], failed: 0, handle })
  .then(() => "ended without an error", (err) => err.message);
clearInterval(sampler);
console.log(JSON.stringify({ first, message, limitMb, peakMb, seconds: (performance.now() - started) / 1000 }));
`,
  );
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        "--config",
        new URL("../../deno.json", import.meta.url).pathname,
        `${dir}/loadlab.ts`,
      ],
    })
      .output();
    const stderr = new TextDecoder().decode(out.stderr);
    ok(out.success, stderr);
    const { first, message, limitMb, peakMb, seconds } = JSON.parse(new TextDecoder().decode(out.stdout));
    assertEquals(first, { stdout: "kept 0" });
    assertEquals(
      message,
      `handleSummary() failed: it grew loadlab's memory past ${limitMb} MB (its limit; --max-memory-mb ` +
        "or maxMemoryMb to change); the run's results are kept",
    );
    console.log(`peak ${peakMb.toFixed(0)} MB (limit ${limitMb}), ${seconds.toFixed(1)} s`);
    ok(seconds < 15, `${seconds} s`);
    ok(peakMb < limitMb + 300, `${peakMb} MB`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});
