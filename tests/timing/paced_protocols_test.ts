/**
 * @module
 * A paced session's latency is the target's over every protocol past plain HTTP/1.1: HTTPS (scripts and
 * flows), cleartext HTTP/2 (scripts and flows, each request a stream), WebSocket flows (a message and its
 * echo between think times) and gRPC (flow steps and `s.grpc.invoke`), on the epoll transport and on Deno's
 * own (WebSocket on io_uring as well, where the kernel allows a ring), against the real built-in target.
 * Each row is held at p50 to the target's own round trip, timed beside it at the same pace by an independent
 * client of the same protocol (paced_rows.ts): a TLS socket, the fixtures' raw HTTP/2 client (a gRPC call
 * as its HEADERS and DATA), Deno's WebSocket. Each run is about a second.
 */
import { startTarget } from "../../targets/start.ts";
import { uringUnavailableReason } from "../../runner/http/transport/uring/ring.ts";
import { loadProtoFile } from "../../runner/http/grpc/schema.ts";
import { withTempDir } from "../helpers.ts";
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import { checkRows, h1Reference, h2Reference, type PacedRow, wsReference } from "./paced_rows.ts";

const PATH = "/json";
const ECHO = "/loadlab.target.Target/Echo";
const script = new URL("../fixtures/scripts/paced_get.ts", import.meta.url).pathname;
const grpcScript = new URL("../fixtures/scripts/paced_grpc.ts", import.meta.url).pathname;
const PROTO = new URL("../../targets/app/target.proto", import.meta.url).pathname;
const TRANSPORTS = ["epoll", "deno"] as const;

/** A flow of `step` twice, each after a think time (the first a leading one): never back to back. */
function paced(step: Record<string, unknown>) {
  return { name: "paced", weight: 1, steps: [{ thinkMs: 13 }, step, { thinkMs: 21 }, step] };
}
const get = paced({ request: { method: "GET", path: PATH, headers: [], weight: 1 } });
const grpcFlow = paced({ grpc: { call: ECHO.slice(1), message: { data: "aGk=" }, metadata: {} } });
/** Connect, three messages each answered by its echo after a think time, close. */
const wsFlow = {
  name: "paced",
  weight: 1,
  steps: [
    { ws: { connect: "/ws/echo" } },
    ...[13, 21, 17].flatMap((thinkMs) => [{ thinkMs }, { ws: { send: "hello", match: {} } }]),
    { thinkMs: 11 },
    { ws: { close: 1000 } },
  ],
};

/** The rows of `kinds` (a name and the load's fields) on each of `transports`. */
function rowsOf(
  url: string,
  reference: PacedRow["reference"],
  kinds: ReadonlyArray<readonly [string, Record<string, unknown>]>,
  transports: readonly string[] = TRANSPORTS,
): PacedRow[] {
  return kinds.flatMap(([name, load]) =>
    transports.map((transport) => ({
      name: `${name} on ${transport}`,
      input: { url, transport, ...load },
      reference,
    }))
  );
}

Deno.test("paced scripts and flows over HTTPS and HTTP/2 read the target's own latency at p50", async () => {
  await withTempDir(async (dir) => {
    const tls = await startTarget({ kind: "builtin", tls: "self-signed" }, { logDir: dir });
    const plain = await startTarget({ kind: "builtin" });
    try {
      const caFile = tls.caFile!;
      await checkRows([
        ...rowsOf(tls.url, h1Reference(tls.url, PATH, caFile), [
          ["https script", { script: { path: script }, tls: { caFile } }],
          ["https flow", { flows: [get], tls: { caFile } }],
        ]),
        ...rowsOf(plain.url, h2Reference(plain.url, PATH), [
          ["h2c script", { script: { path: script }, protocol: "h2c" }],
          ["h2c flow", { flows: [get], protocol: "h2c" }],
        ]),
      ]);
    } finally {
      await Promise.all([tls.stop(), plain.stop()]);
    }
  });
});

Deno.test("paced WebSocket flows and gRPC calls read the target's own latency at p50", async () => {
  const target = await startTarget({ kind: "builtin", grpc: true });
  try {
    const set = (loadProtoFile(PROTO) as unknown as { toDescriptor(s: string): unknown }).toDescriptor(
      "proto3",
    );
    // deno-lint-ignore no-explicit-any
    const schema = (protobuf as any).descriptor.FileDescriptorSet.encode(set).finish() as Uint8Array;
    const uring = uringUnavailableReason();
    if (uring !== null) console.log(`io_uring rows skipped: ${uring}`);
    // Echo's request: field 1 (data, bytes) holding "hi", length-prefixed as gRPC frames a message.
    const echo = new Uint8Array([0, 0, 0, 0, 4, 0x0a, 2, 0x68, 0x69]);
    const grpcUrl = target.grpcUrl!;
    await checkRows([
      ...rowsOf(
        target.url,
        wsReference(target.url, "/ws/echo"),
        [["ws flow", { flows: [wsFlow] }]],
        uring === null ? [...TRANSPORTS, "io_uring"] : TRANSPORTS,
      ),
      ...rowsOf(grpcUrl, h2Reference(grpcUrl, ECHO, { grpc: echo }), [
        ["grpc flow", { flows: [grpcFlow], protocol: "h2c", grpc: { schema } }],
        ["grpc script", { script: { path: grpcScript }, protocol: "h2c" }],
      ]),
    ]);
  } finally {
    await target.stop();
  }
});
