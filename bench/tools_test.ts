import assert from "node:assert/strict";
import {
  BENCH_TOOLS,
  parseAutocannonJson,
  parseK6Summary,
  parseLoadlabJson,
  parseOhaJson,
  parseRequestsPerSecLine,
} from "./tools.ts";

const WRK_OUTPUT = `Running 10s test @ http://127.0.0.1:8080/
  1 threads and 50 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   512.33us  120.10us   4.20ms   90.12%
    Req/Sec    97.61k     2.10k  101.20k    71.00%
  971234 requests in 10.00s, 140.32MB read
Requests/sec:  97123.40
Transfer/sec:     14.03MB
`;

const HEY_OUTPUT = `
Summary:
  Total:\t10.0021 secs
  Slowest:\t0.0301 secs
  Requests/sec:\t41234.5678
`;

Deno.test("wrk and hey: the Requests/sec line", () => {
  assert.equal(parseRequestsPerSecLine(WRK_OUTPUT), 97123.4);
  assert.equal(parseRequestsPerSecLine(HEY_OUTPUT), 41234.5678);
  assert.ok(Number.isNaN(parseRequestsPerSecLine("unable to connect to 127.0.0.1:1 Connection refused")));
});

Deno.test("autocannon -j: total requests over the measured seconds, else the per-second average", () => {
  assert.equal(
    parseAutocannonJson(JSON.stringify({ duration: 10.02, requests: { total: 501000, average: 50100 } })),
    50000,
  );
  assert.equal(parseAutocannonJson(JSON.stringify({ requests: { average: 48000 } })), 48000);
});

Deno.test("oha, k6 and loadlab JSON", () => {
  assert.equal(
    parseOhaJson(JSON.stringify({ summary: { successRate: 1, requestsPerSec: 61234.5 } })),
    61234.5,
  );
  assert.equal(parseK6Summary(JSON.stringify({ metrics: { http_reqs: { count: 100, rate: 10.5 } } })), 10.5);
  assert.equal(parseLoadlabJson(JSON.stringify({ requests: 10, durationSec: 1, rps: 10 })), 10);
  assert.ok(Number.isNaN(parseOhaJson("{}")));
  assert.throws(() => parseLoadlabJson("error: boom"), SyntaxError);
});

Deno.test("every tool plans 50 connections for the given seconds, or says why it is skipped", async () => {
  for (const tool of BENCH_TOOLS) {
    const run = await tool.plan("http://127.0.0.1:9/", 50, 3);
    if (typeof run === "string") {
      assert.ok(run.length > 0, `${tool.name} skip reason`);
      continue;
    }
    const argv = run.argv.join(" ");
    assert.match(argv, /(-c ?50|--vus 50)\b/, `${tool.name}: ${argv}`);
    assert.ok(run.argv.some((a) => /^(-d)?3s?$/.test(a)), `${tool.name} runs 3 s: ${argv}`);
    assert.ok(
      run.argv.at(-1) === "http://127.0.0.1:9/" || tool.name === "loadlab" || tool.name === "k6",
      argv,
    );
    await run.cleanup?.();
  }
});
