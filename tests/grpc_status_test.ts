/**
 * `loadlab attack grpc://` against the built-in target's gRPC endpoints (in-process, node:http2) where every
 * call is answered with a status other than OK (`Cpu` with n past its bound: INVALID_ARGUMENT): each call
 * is a request (ghz's count), its latency measured, counted under its status with its message; the run
 * exits 0 as ghz does, its verdict flagging the errors (exit 6 with --strict); ghz's JSON and CSV list them;
 * thresholds select the kind by name (`errors{kind:...}`, `errorRate{kind:"..."}`), each judged on that
 * kind's count alone; a kind that does not exist is exit 2 before any load, naming the nearest.
 */
import assert from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { runLoadlab } from "./helpers.ts";

const PROTO = new URL("../targets/app/target.proto", import.meta.url).pathname;

Deno.test({
  name:
    "gRPC: every call answered with a status is a request under that status, and thresholds select its kind",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
    const dir = await Deno.makeTempDir({ prefix: "loadlab_grpc_status_" });
    try {
      const attack = (...extra: string[]) =>
        runLoadlab([
          "attack",
          `grpc://127.0.0.1:${server.port}`,
          "--call",
          "loadlab.target.Target/Cpu",
          "--proto",
          PROTO,
          "-b",
          '{"n": 99}',
          "-n",
          "20",
          "-c",
          "2",
          ...extra,
        ]);
      const out = await attack(
        "-o",
        `${dir}/results.json`,
        "--log",
        `${dir}/calls.csv`,
        "--threshold",
        "errors{kind:grpc INVALID_ARGUMENT}>=20",
        "--threshold",
        'errorRate{kind:"grpc INVALID_ARGUMENT"}<1%',
        "--threshold",
        "errorRate{kind:grpc UNAVAILABLE}<1%",
      );
      assert.equal(out.code, 1, out.stderr + out.stdout);
      assert.doesNotMatch(out.stderr, /no response at all|no successful call/);
      assert.match(
        out.stdout,
        /Verdict: (.*, )?errors 100% \(grpc INVALID_ARGUMENT 20\), no success: not one call answered OK/,
      );
      assert.match(out.stdout, /Requests: +20\n/);
      assert.match(out.stdout, /\[grpc INVALID_ARGUMENT\] 20 responses\n +20 × n is 0\.\.40/);
      const results: ResultsFile = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      const run = results.runs[0];
      assert.deepEqual([run.requests, run.errors, run.statusCodes], [20, {}, {
        "grpc INVALID_ARGUMENT": 20,
      }]);
      assert.ok(run.latencyMs.max > 0, "every answered call's latency is measured");
      // The request log has a line per answered call, its code 1000 + the gRPC status's (3).
      const lines = (await Deno.readTextFile(`${dir}/calls.csv`)).trim().split("\n").slice(1);
      assert.deepEqual([lines.length, new Set(lines.map((l) => l.split(";")[0]))], [20, new Set(["1003"])]);
      assert.deepEqual(results.thresholds?.map((t) => [t.ok, t.actual]), [[true, 20], [false, 1], [true, 0]]);
      assert.equal((await attack()).code, 0);
      assert.equal((await attack("--strict")).code, 6);
      // ghz's JSON on stdout, as a team's jq reads it; loadlab's verdict beside it on stderr.
      // ghz's --insecure (plaintext) on a grpc:// URL: nothing to warn of, there is no certificate.
      const json = await attack("-O", "json", "-c", "4", "--connections", "2", "--insecure");
      assert.doesNotMatch(json.stderr, /not verified/);
      assert.equal(json.code, 0, json.stderr);
      const ghz = JSON.parse(json.stdout);
      assert.deepEqual([ghz.count, ghz.statusCodeDistribution, ghz.errorDistribution], [
        20,
        { InvalidArgument: 20 },
        { "rpc error: code = InvalidArgument desc = n is 0..40": 20 },
      ]);
      // ghz's average is over every call; its fastest, slowest, percentiles and histogram over OK ones: none.
      assert.deepEqual([ghz.average > 0, ghz.slowest, ghz.latencyDistribution, ghz.histogram], [
        true,
        0,
        null,
        null,
      ]);
      assert.match(json.stderr, /4 calls in flight over 2 connections \(ghz's -c and --connections\)/);
      assert.match(json.stderr, /verdict: (.*, )?errors 100%/);
      // ghz's CSV: a blank line, its header, then a row per call (duration in ms with 2 decimals).
      const csv = await attack("-O", "csv");
      assert.equal(csv.code, 0, csv.stderr);
      const [blank, header, ...rows] = csv.stdout.trimEnd().split("\n");
      assert.deepEqual([blank, header, rows.length], ["", "duration (ms),status,error", 20]);
      for (const row of rows) {
        assert.match(
          row,
          /^\d+\.\d\d,InvalidArgument,rpc error: code = InvalidArgument desc = n is 0\.\.40$/,
        );
      }

      const typo = await attack("--threshold", "errors{kind:grpc INVALID_ARGUEMNT}<1");
      assert.equal(typo.code, 2, typo.stderr);
      assert.match(
        typo.stderr,
        /no error kind "grpc INVALID_ARGUEMNT"; did you mean "grpc INVALID_ARGUMENT"\?/,
      );
    } finally {
      await server.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
