/**
 * The engine's gRPC calls against grpc-go (bench/grpc_greeter, another project's server, built here with
 * `go build`) over h2c: unary calls on many streams, a server stream, every status code by its own kind
 * with its message, an unknown method, gzip both ways (its replies inflated and capped by their inflated
 * size). Without Go (or without its modules) the test skips with the reason,
 * except under CI=true.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import { findProgram } from "../../../system/path_lookup.ts";
import { type GrpcCall, grpcRequestSpec } from "./call.ts";
import { GRPC_CODE_NAMES } from "../../../grpc/status.ts";
import { withChildPort } from "../../../tests/fixtures/child_port.ts";
import { keepLoadWorkers } from "../../worker/load_worker.ts";

// Many runs in one process: each script-less run's isolates serve the next ones (see the pool).
keepLoadWorkers();

/** The greeter built into a temporary folder, or why it could not be. */
async function build(): Promise<{ path: string } | { skip: string }> {
  const go = findProgram("go");
  if (go === null) return { skip: "go not on PATH" };
  const dir = await Deno.makeTempDir({ prefix: "loadlab-grpc-go-" });
  const out = await new Deno.Command(go, {
    args: ["build", "-o", `${dir}/greeter`, "."],
    cwd: new URL("../../../bench/grpc_greeter/", import.meta.url).pathname,
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) return { skip: `go build failed: ${new TextDecoder().decode(out.stderr).slice(0, 300)}` };
  return { path: `${dir}/greeter` };
}

const built = await build();
if ("skip" in built) {
  if (Deno.env.get("CI") === "true") {
    throw new Error(`the grpc-go conformance test cannot run: ${built.skip}`);
  }
  console.log(`go_grpc_test skipped: ${built.skip}`);
}

/** Runs `fn` with the greeter up, given its port. */
function withGoGreeter<T>(fn: (port: number) => Promise<T>): Promise<T> {
  return withChildPort((built as { path: string }).path, { env: { PORT: "0" } }, fn);
}

/** HelloRequest{name, count} and FailRequest{code, message} by hand: fields 1 (string or varint) and 2. */
function message(text: string, number: number, textFirst = true): Uint8Array {
  const bytes = new TextEncoder().encode(text);
  const str = (field: number) => [(field << 3) | 2, bytes.length, ...bytes];
  const varint = (field: number) => number === 0 ? [] : [field << 3, number];
  return Uint8Array.from(textFirst ? [...str(1), ...varint(2)] : [...varint(1), ...str(2)]);
}

function attack(port: number, calls: GrpcCall[], requests: number, maxReceiveBytes?: number) {
  return runAttack(parseAttackConfig({
    url: `http://127.0.0.1:${port}/`,
    protocol: "h2c",
    grpc: maxReceiveBytes === undefined ? {} : { maxReceiveBytes },
    model: "count",
    connections: 2,
    streams: 8,
    requests,
    timeoutMs: 3000,
    generatorWarmup: false,
    requestMix: calls.map((c) => grpcRequestSpec(c, 3000)),
  }));
}

const test = (name: string, fn: () => Promise<void>) =>
  Deno.test({ name: `gRPC calls vs grpc-go: ${name}`, ignore: "skip" in built, fn });

test("unary calls on 16 streams and a server stream of 20, each OK", async () => {
  await withGoGreeter(async (port) => {
    const r = await attack(port, [
      { method: "helloworld.Greeter/SayHello", message: message("go", 0) },
      { method: "helloworld.Greeter/SayHellos", message: message("go", 20) },
    ], 200);
    assertEquals([r.requests, r.errors], [200, {}]);
  });
});

test("a call answered with any code is a request, counted under its status with its grpc-message", async () => {
  await withGoGreeter(async (port) => {
    for (let code = 1; code <= 16; code++) {
      const r = await attack(port, [{
        method: "helloworld.Greeter/Fail",
        message: message(`why ${code}`, code, false),
      }], 2);
      const status = `grpc ${GRPC_CODE_NAMES[code]}`;
      assertEquals([r.requests, r.errors, r.statusCodes, r.successRate], [2, {}, { [status]: 2 }, 0]);
      assertEquals(Object.keys(r.errorMessages?.[status] ?? {}), [`why ${code}`]);
      assertEquals(r.latencyMs.max > 0, true);
    }
    const r = await attack(port, [{ method: "helloworld.Greeter/Nope", message: new Uint8Array(0) }], 3);
    assertEquals([r.requests, r.statusCodes], [3, { "grpc UNIMPLEMENTED": 3 }]);
  });
});

test("half the calls answered INVALID_ARGUMENT: every call a request, half of them failed", async () => {
  await withGoGreeter(async (port) => {
    const r = await attack(port, [
      { method: "helloworld.Greeter/SayHello", message: message("go", 0) },
      { method: "helloworld.Greeter/Fail", message: message("bad name", 3, false) },
    ], 200);
    const failed = r.statusCodes["grpc INVALID_ARGUMENT"];
    assertEquals([r.requests, r.errors, r.statusCodes["200"] + failed], [200, {}, 200]);
    assertEquals(failed > 50 && failed < 150, true, `${failed} of 200 failed`);
    assertEquals(r.successRate, (200 - failed) / 200);
  });
});

test("concurrency 5 over 4 connections: 5 calls in flight, dealt over the 4 in turn", async () => {
  await withGoGreeter(async (port) => {
    // SayHellos with count -1 never ends: each slot's call stays in flight until its deadline.
    const endless = Uint8Array.from([...message("go", 0), 16, ...Array(9).fill(0xff), 1]);
    const r = await runAttack(parseAttackConfig({
      url: `http://127.0.0.1:${port}/`,
      protocol: "h2c",
      grpc: {},
      model: "connections",
      connections: 4,
      streams: 2,
      concurrency: 5,
      durationMs: 1000,
      intervalMs: 100,
      timeoutMs: 700,
      generatorWarmup: false,
      requestMix: [grpcRequestSpec({ method: "helloworld.Greeter/SayHellos", message: endless }, 700)],
    }));
    const inFlight = Math.max(...r.intervals.map((iv) => iv.inFlight));
    assertEquals([inFlight, r.connects, r.maxStreamsPerConnection], [5, 4, 2]);
  });
});

test("gzip both ways: a compressed call is answered compressed and inflated; past the cap inflated, too big", async () => {
  await withGoGreeter(async (port) => {
    const zipped = (count: number): GrpcCall => ({
      method: `helloworld.Greeter/${count ? "SayHellos" : "SayHello"}`,
      message: message("z".repeat(100), count),
      compress: "gzip",
    });
    const r = await attack(port, [zipped(0), zipped(3)], 20);
    assertEquals([r.requests, r.errors], [20, {}]);
    // "Hello zzz..." (a 108-byte message) inflates past a 50-byte cap though it travels in fewer: refused by
    // its inflated size, not by its prefix.
    const capped = await attack(port, [zipped(0)], 4, 50);
    assertEquals(capped.errors, { "grpc-too-big": 4 });
    const why = Object.keys(capped.errorMessages?.["grpc-too-big"] ?? {});
    assertEquals(
      why.every((m) => /^a gzip message of \d+ bytes inflating past the 50-byte/.test(m)),
      true,
      why.join(),
    );
  });
});

addEventListener("unload", () => {
  if ("path" in built) Deno.removeSync(built.path.slice(0, -"/greeter".length), { recursive: true });
});
