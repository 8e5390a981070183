/**
 * gRPC messages with `{{ placeholders }}`, end to end against the built-in target's gRPC endpoints
 * (targets/app/grpc_endpoints.ts, served in this process): an experiment's `message:` filled from a data
 * file row by row (each row's value reaching the server: a valid `n` answered OK, one out of the
 * server's range answered INVALID_ARGUMENT, one that is not an int32 refused as `bad-value` and never
 * sent), `attack -b` with a built-in function and no data (each call filled), and what is refused before
 * the load (exit 2) with its path.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { withTempDir } from "./helpers.ts";

const PROTO = new URL("../targets/app/target.proto", import.meta.url).pathname;

async function withGrpcTarget(fn: (port: number) => Promise<void>): Promise<void> {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    await fn(server.port);
  } finally {
    await server.close();
  }
}

Deno.test("an experiment's gRPC message takes a data file's rows: each row's value is the call's", async () => {
  await withGrpcTarget((port) =>
    withTempDir(async (dir) => {
      await Deno.writeTextFile(`${dir}/work.csv`, "n,label\n5,five\n99,many\nx,bad\n");
      await Deno.writeTextFile(
        `${dir}/exp.yaml`,
        `name: grpc-rows
targets:
  app: { url: "http://127.0.0.1:${port}" }
data:
  work: { file: work.csv }
grpc:
  call: loadlab.target.Target/Cpu
  proto: ${PROTO}
  message: { n: "{{ n }}" }
  metadata: { x-label: "{{ label }}" }
loads:
  rows: { model: count, requests: 30, connections: 1, streams: 3, data: work, timeout: 5s }
`,
      );
      const r = await loadlabInProcess(["run", `${dir}/exp.yaml`, "--out-dir", `${dir}/out`]);
      assertEquals(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
      const run = JSON.parse(await Deno.readTextFile(`${dir}/out/results.json`)).runs[0];
      assertEquals([run.errors, run.statusCodes], [{ "bad-value": 10 }, {
        "200": 10,
        "grpc INVALID_ARGUMENT": 10,
      }]);
      assertEquals(Object.keys(run.errorMessages["bad-value"]), [
        "message.n as filled is not a int32: not sent",
      ]);
      // results.json says the message is a template, not its encoded pieces.
      assertEquals([run.config.requestMix[0].grpcTemplate, run.config.requestMix[0].grpcMessage], [
        true,
        undefined,
      ]);
    })
  );
});

Deno.test("attack -b takes built-in functions without data; what cannot fit is refused before the load", async () => {
  await withGrpcTarget(async (port) => {
    const base = [
      "attack",
      `grpc://127.0.0.1:${port}`,
      "--call",
      "loadlab.target.Target/Cpu",
      "--proto",
      PROTO,
      "-n",
      "12",
      "-c",
      "1",
      "--streams",
      "4",
      "--timeout",
      "5s",
    ];
    await withTempDir(async (dir) => {
      const r = await loadlabInProcess([
        ...base,
        "-b",
        '{"n": {{ $randomNumber(1,10) }}}',
        "-o",
        `${dir}/r.json`,
      ]);
      assertEquals(r.code, 0, r.stdout + r.stderr);
      const run = JSON.parse(await Deno.readTextFile(`${dir}/r.json`)).runs[0];
      assertEquals([run.requests, run.errors, run.statusCodes], [12, {}, { "200": 12 }]);
    });
    const wrong = await loadlabInProcess([...base, "-b", '{"nn": {{ $randomNumber(1,10) }}}']);
    assertEquals(wrong.code, 2, wrong.stderr);
    ok(
      wrong.stderr.includes("-b message.nn: loadlab.target.Work has no field nn (its fields: n, "),
      wrong.stderr,
    );
    const unknown = await loadlabInProcess([...base, "-b", '{"n": "{{ count }}"}']);
    assertEquals(unknown.code, 2, unknown.stderr);
    ok(unknown.stderr.includes("-b message: {{ count }} is unknown"), unknown.stderr);
  });
});
