/**
 * k6 scripts behaving as under k6 where loadlab once refused or left them short: a custom metric's
 * threshold with `abortOnFail` stopping the run live (results and k6's summary still written, the run
 * marked aborted by it), `tlsVersion` and `tlsCipherSuites` offered by the OpenSSL client, and `res.ocsp`
 * as k6 gives it without a stapled answer. Against the built-in target (an HTTPS `Deno.serve` for TLS);
 * loads bounded in time and count.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTarget } from "./helpers.ts";
import { runK6Fixture as runIn, runK6Text } from "./k6_run.ts";
import { EPOLL_TLS_BLOCKER, withTlsTarget } from "./tls_fixtures.ts";

Deno.test("abortOnFail on a custom Rate stops the run live, after its delayAbortEval", () =>
  withTarget(async (url) => {
    const { code, text, results, dir } = await runIn("abort_custom.js", url);
    assertEquals(code, 99, text);
    const run = results.runs[0];
    assertEquals([run.abortedBy.threshold, run.abortedBy.actual, run.incomplete], [
      "check_failure_rate: rate<=0.05",
      1,
      true,
    ]);
    // Judged on k6's 2 s tick, from the delay on: at 2 s unless the cores held the first samples back.
    ok(run.abortedBy.atSec >= 2 && run.abortedBy.atSec < 15, JSON.stringify(run.abortedBy));
    assertEquals(run.abortedBy.atSec % 2, 0, JSON.stringify(run.abortedBy));
    // The 20 s of load were cut short (measured time, not the wall clock: busy cores slow the start-up).
    ok(run.durationSec < 15, `the 20 s run was not stopped: ${run.durationSec} s`);
    ok(/aborted at [\d.]+s by check_failure_rate: rate<=0\.05/.test(text), text);
    const m = JSON.parse(Deno.readTextFileSync(`${dir}/summary/data.json`)).metrics;
    assertEquals(m.check_failure_rate.thresholds, {
      "rate<0.01": { ok: false },
      "rate<=0.05": { ok: false },
    });
    ok(m.check_failure_rate.values.passes > 0, JSON.stringify(m.check_failure_rate));
  }));

Deno.test("abortOnFail on a built-in metric is judged on k6's 2 s tick too: after a 3 s delay, at 4 s", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { sleep } from "k6";
export const options = {
  vus: 1,
  duration: "20s",
  thresholds: { http_req_failed: [{ threshold: "rate<0.1", abortOnFail: true, delayAbortEval: "3s" }] },
};
export default function () { http.get("${url}/missing"); sleep(0.1); }
`,
      null,
    );
    assertEquals(code, 99, text);
    const { abortedBy } = results.runs[0];
    assertEquals(abortedBy.threshold, "http_req_failed: rate<0.1", text);
    // The first tick past the delay; a later one only if the cores held the first samples back.
    ok(abortedBy.atSec >= 4 && abortedBy.atSec % 2 === 0 && abortedBy.atSec < 15, JSON.stringify(abortedBy));
  }));

Deno.test("abortOnFail on checks stops the run on k6's tick, its summary counting what was checked", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runK6Text(
      `import http from "k6/http";
import { check, sleep } from "k6";
export const options = {
  vus: 1,
  duration: "20s",
  thresholds: { checks: [{ threshold: "rate>0.9", abortOnFail: true, delayAbortEval: "1s" }] },
};
export default function () {
  check(http.get("${url}/missing"), { "is 200": (r) => r.status === 200 });
  sleep(0.1);
}
`,
      null,
    );
    assertEquals(code, 99, text);
    const { abortedBy, durationSec } = results.runs[0];
    assertEquals(abortedBy.threshold, "checks: rate>0.9", text);
    ok(abortedBy.atSec >= 2 && abortedBy.atSec % 2 === 0 && durationSec < 15, JSON.stringify(abortedBy));
    ok(/✗ 'rate>0\.9' rate=0\.00%/.test(text), text);
  }));

Deno.test("res.ocsp over plain HTTP is k6's empty answer; k6/http's OCSP and TLS names", () =>
  withTarget(async (url) => {
    const { code, text, results } = await runIn("ocsp_plain.js", url);
    assertEquals(code, 0, text);
    const checks = results.runs[0].flows[0].steps.flatMap((s: { checks?: unknown[] }) => s.checks ?? []);
    assertEquals(
      checks.map((c: { name: string; passed: number; failed: number }) => [c.name, c.passed, c.failed]),
      [
        ["ocsp empty over http", 2, 0],
        ["ocsp names", 2, 0],
        ["tls names", 2, 0],
      ],
    );
  }));

Deno.test({
  name:
    "tlsVersion and tlsCipherSuites: OpenSSL offers TLS 1.2 at most and the named suite; res.ocsp unknown",
  ignore: EPOLL_TLS_BLOCKER !== null,
  fn: () =>
    withTlsTarget(async (port) => {
      const { code, text, results } = await runIn("tls_options.js", `https://127.0.0.1:${port}`);
      assertEquals(code, 0, text);
      const run = results.runs[0];
      assertEquals([run.tls.client, run.tls.version, run.tls.cipher], [
        "openssl",
        "TLSv1.2",
        "ECDHE-ECDSA-AES128-GCM-SHA256",
      ]);
      assertEquals(run.config.tls.ciphers.length, 2);
      const checks = run.flows[0].steps.flatMap((s: { checks?: unknown[] }) => s.checks ?? []);
      assertEquals(checks.map((c: { name: string; passed: number }) => [c.name, c.passed]), [
        ["status 200", 2],
        ["ocsp unknown over tls", 2],
      ]);
    }),
});
