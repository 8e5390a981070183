/**
 * An experiment against the built-in target with `grpc: true` over TLS (`tls: self-signed`), end to end
 * through `loadlab run`: the section's call (no `proto:`: the built-in target's schema) goes to the
 * target's gRPC endpoints, verified by the CA the target made; a paced server stream is timed to its first
 * message as well as to its end (results.json and the report's run details in chromium); a threshold on
 * one error kind is judged. Bounded: 20 calls of about 10 ms each.
 */
import assert from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { openReport } from "./browser.ts";
import { requireProgram, runLoadlab } from "./helpers.ts";

const FILE = `
name: grpc-builtin-tls
targets:
  app: { kind: builtin, grpc: true, tls: self-signed }
grpc:
  call: loadlab.target.Target/Stream
  message: { n: 3, size: 10, ms: 5 }
loads:
  rpc: { model: count, requests: 20, connections: 1, streams: 4 }
thresholds:
  - "errorRate{kind:grpc UNAVAILABLE}<1%"
`;

Deno.test({
  name:
    "gRPC against the built-in target over TLS: the stream's first message beside its end, a kind's threshold",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const dir = await Deno.makeTempDir({ prefix: "loadlab_grpc_builtin_" });
    try {
      await Deno.writeTextFile(`${dir}/grpc.yaml`, FILE);
      const out = await runLoadlab(["run", `${dir}/grpc.yaml`, "--out-dir", `${dir}/out`]);
      assert.equal(out.code, 0, out.stderr + out.stdout);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`));
      const [run] = results.runs;
      assert.deepEqual([run.requests, run.errors, run.protocol], [20, {}, "h2"]);
      assert.ok(run.url?.startsWith("https://"), run.url);
      assert.equal(run.firstMessage?.streams, 20);
      // Replies 5 ms apart: the whole stream ends 10 ms or more after its first reply.
      assert.ok(run.latencyMs.min >= 10, `whole stream min ${run.latencyMs.min} ms`);
      assert.ok(
        run.firstMessage.latencyMs.p50 <= run.latencyMs.p50,
        JSON.stringify(run.firstMessage.latencyMs),
      );
      assert.deepEqual(results.thresholds.map((r) => [r.expression, r.ok, r.actual]), [
        ["errorRate{kind:grpc UNAVAILABLE}<1%", true, 0],
      ]);
      await t.step({
        name: "the report's run details show the first message beside the whole stream",
        ignore: !requireProgram("chromium"),
        async fn() {
          const { problems, value } = await openReport(
            `${dir}/out/report.html`,
            (page) => page.locator("text=streamed answers").allTextContents(),
          );
          assert.deepEqual(problems, []);
          assert.equal(value.length, 1, JSON.stringify(value));
          assert.match(
            value[0],
            /^20 streamed answers: first message p50 .+, p99 .+; whole stream p50 .+, p99 .+$/,
          );
        },
      });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});
