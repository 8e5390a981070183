/**
 * gRPC messages with `{{ placeholders }}` under `--compress gzip` and `--max-send`: each filled message
 * gzip-compressed per call, as @grpc/grpc-js's greeter (examples/grpc/server.js; needs `npm install
 * --prefix examples`) reads it (a message it cannot inflate would be answered INTERNAL), and each filled
 * message checked against the send cap per call against the built-in target's Echo: a data row that
 * makes it too big is counted `grpc RESOURCE_EXHAUSTED` and never sent, the others answered OK.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { GREETER_PROTO, nodeGreeterSkip, withNodeGreeter } from "./fixtures/node_greeter.ts";
import { withTempDir } from "./helpers.ts";

const TARGET_PROTO = new URL("../targets/app/target.proto", import.meta.url).pathname;

const skip = nodeGreeterSkip("grpc_template_limits_test: the compression test");

Deno.test({
  name: "--compress gzip with a templated message: each filled message compressed, grpc-js reads every one",
  ignore: skip !== null,
  fn: () =>
    withNodeGreeter((port) =>
      withTempDir(async (dir) => {
        const r = await loadlabInProcess([
          "attack",
          `grpc://127.0.0.1:${port}`,
          ...["--call", "helloworld.Greeter/SayHello", "--proto", GREETER_PROTO, "--compress", "gzip"],
          // A name of 4,000 bytes that gzip makes a few dozen: the bytes written say it was compressed.
          ...[
            "-b",
            `{"name": "{{ $randomString(8) }}${"a".repeat(4000)}", "count": {{ $randomNumber(1,9) }}}`,
          ],
          ...["-n", "20", "-c", "1", "--streams", "4", "--timeout", "5s", "-o", `${dir}/r.json`],
        ]);
        assertEquals(r.code, 0, r.stdout + r.stderr);
        const run = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).runs[0];
        assertEquals([run.statusCodes, run.errors], [{ "200": 20 }, {}]);
        assertEquals(run.bytesWritten < 20 * 1000, true, `${run.bytesWritten} bytes written for 20 calls`);
      })
    ),
});

Deno.test("--max-send with a templated message: a row that fills it past the cap is counted, not sent", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    await withTempDir(async (dir) => {
      // Payload.data is bytes (base64): 3 bytes, and 150 bytes past a 100-byte cap.
      const big = btoa("x".repeat(150));
      await Deno.writeTextFile(`${dir}/rows.csv`, `data\nYWJj\n${big}\n`);
      const r = await loadlabInProcess([
        "attack",
        `grpc://127.0.0.1:${server.port}`,
        ...["--call", "loadlab.target.Target/Echo", "--proto", TARGET_PROTO, "--max-send", "100"],
        ...["-b", '{"data": "{{ data }}"}', "--data-file", `${dir}/rows.csv`],
        ...["-n", "12", "-c", "1", "--streams", "2", "--timeout", "5s", "-o", `${dir}/r.json`],
      ]);
      assertEquals(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
      const run = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).runs[0];
      assertEquals([run.statusCodes, run.errors], [{ "200": 6 }, { "grpc RESOURCE_EXHAUSTED": 6 }]);
      assertEquals(Object.keys(run.errorMessages["grpc RESOURCE_EXHAUSTED"]), [
        "message as filled is over the 100-byte send cap (--max-send): not sent",
      ]);
    });
  } finally {
    await server.close();
  }
});
