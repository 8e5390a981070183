/**
 * The engine's gRPC calls against the hostile gRPC server fixture (tests/fixtures/grpc_hostile_server.ts),
 * one misbehaviour per server: every mode ends in bounded time with each call counted under its kind
 * (`grpc-protocol` with the breach named, `grpc-too-big`, a status's own kind, `timeout` for a stream that
 * never ends), never a crash or a hang; a gzip reply is inflated, one inflating past the cap is
 * `grpc-too-big`; a refused stream is reset while the server still sends on it; a unary call answered with
 * two messages is `grpc-protocol`; a reset, a connection closed mid-answer and silence end each call under
 * their kinds. Each message carries what grpc-go's words need (a flag, a status's text, an HTTP status).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { parseAttackConfig } from "../../config.ts";
import { runAttack } from "../../attack.ts";
import type { RunResult } from "../../../results/mod.ts";
import { type GrpcHostileMode, startGrpcHostileServer } from "../../../tests/fixtures/grpc_hostile_server.ts";
import { grpcRequestSpec } from "./call.ts";

/**
 * Longest a run may take: 6 calls of at most 300 ms each on 2 streams, and the workers' start, which in a
 * parallel suite on a busy machine may include the worker's first type check. A hang never ends at all.
 */
const BOUND_MS = 60_000;
const CALLS = 6;

async function attackMode(
  mode: GrpcHostileMode,
): Promise<{ r: RunResult; resets: number; requests: number }> {
  // The endless stream's calls are of a server-streaming method; every other mode's of a unary one.
  const unary = mode !== "endless-stream";
  const server = startGrpcHostileServer(mode);
  const started = performance.now();
  try {
    const r = await runAttack(parseAttackConfig({
      url: server.origin,
      model: "count",
      connections: 1,
      streams: 2,
      requests: CALLS,
      protocol: "h2c",
      grpc: {},
      // The silent server's calls time out; the others' answer, whose 4 MiB read on a busy core may take
      // longer than the silent mode's wait.
      timeoutMs: mode === "silent" ? 300 : 3_000,
      gracefulStopMs: 300,
      generatorWarmup: false,
      requestMix: [
        grpcRequestSpec({ method: "t.S/M", message: Uint8Array.of(0x0a, 0x01, 0x78), unary }, 300),
      ],
    }));
    ok(performance.now() - started < BOUND_MS, `${mode}: the run ended in bounded time`);
    // The last resets may still be on their way to the server's reader as the run returns (busy cores).
    const reset = mode === "over-cap" || mode === "endless-stream";
    for (let waitedMs = 0; reset && server.received.resets < CALLS && waitedMs < 2_000; waitedMs += 50) {
      await new Promise((done) => setTimeout(done, 50));
    }
    return { r, resets: server.received.resets, requests: server.received.requests };
  } finally {
    await server.close();
  }
}

const messages = (r: RunResult, kind: string) =>
  Object.keys((r.errorMessages as Record<string, Record<string, number>>)[kind] ?? {});

/**
 * Each mode: the errors it must come to (all calls), or the status the server answered them with (a
 * `grpc ...` kind: responses, counted under that status), and a message its kind must carry.
 */
const EXPECT: Array<[GrpcHostileMode, Record<string, number>, RegExp | null]> = [
  ["ok", {}, null],
  ["trailers-only", { "grpc UNAVAILABLE": CALLS }, /^busy now$/],
  ["over-cap", { "grpc-too-big": CALLS }, /67108864 bytes \(over the 4194304-byte receive cap\)/],
  ["wrong-length", { "grpc-protocol": CALLS }, /ended inside a message/],
  ["compressed-no-encoding", { "grpc-protocol": CALLS }, /compressed message without grpc-encoding/],
  ["bad-flag", { "grpc-protocol": CALLS }, /^a message prefix whose compressed flag is neither 0 nor 1: 7$/],
  ["no-trailers", { "grpc-protocol": CALLS }, /without trailers/],
  ["garbage-status", { "grpc-protocol": CALLS }, /^a grpc-status that is not a number: "abc"$/],
  [
    "missing-status",
    { "grpc-protocol": CALLS },
    /^trailers without grpc-status \(grpc-message "where is my status"\)$/,
  ],
  ["endless-stream", { timeout: CALLS }, null],
  [
    "not-grpc",
    { "grpc-protocol": CALLS },
    /^not gRPC: HTTP status 200 \(OK\), content-type "text\/html"$/,
  ],
  [
    "http-503",
    { "grpc UNAVAILABLE": CALLS },
    /^not gRPC: HTTP status 503 \(Service Unavailable\), content-type none$/,
  ],
  [
    "http-401",
    { "grpc UNAUTHENTICATED": CALLS },
    /^not gRPC: HTTP status 401 \(Unauthorized\), content-type none$/,
  ],
  [
    "http-404",
    { "grpc UNIMPLEMENTED": CALLS },
    /^not gRPC: HTTP status 404 \(Not Found\), content-type "text\/html"$/,
  ],
  [
    "http-429",
    { "grpc UNAVAILABLE": CALLS },
    /^not gRPC: HTTP status 429 \(Too Many Requests\), content-type none$/,
  ],
  [
    "http-502",
    { "grpc UNAVAILABLE": CALLS },
    /^not gRPC: HTTP status 502 \(Bad Gateway\), content-type none$/,
  ],
  // gRPC's content-type without grpc-status: gRPC's HTTP mapping, and the message names what was missing.
  [
    "grpc-403-no-status",
    { "grpc PERMISSION_DENIED": CALLS },
    /^HTTP status 403 \(Forbidden\): trailers without grpc-status \(grpc-message ""\)$/,
  ],
  ["gzip", {}, null],
  [
    "gzip-bomb",
    { "grpc-too-big": CALLS },
    /^a gzip message of \d+ bytes inflating past the 4194304-byte receive cap$/,
  ],
  [
    "gzip-garbage",
    { "grpc-protocol": CALLS },
    /^a compressed message of 6 bytes that is not gzip \(incorrect header check\)$/,
  ],
  [
    "gzip-corrupt",
    { "grpc-protocol": CALLS },
    /^a gzip message of 15 bytes corrupt before deflate byte 5 \(invalid stored block lengths\)$/,
  ],
  [
    "unknown-encoding",
    { "grpc-protocol": CALLS },
    /compressed with "snappy", which loadlab does not inflate/,
  ],
  // grpc-go and grpc-js fail such a call INTERNAL.
  ["two-messages", { "grpc-protocol": CALLS }, /^a unary call's answer with more than one message$/],
  ["reset-internal", { "h2-protocol": CALLS }, /^RST_STREAM INTERNAL_ERROR$/],
  ["reset-cancel", { "h2-protocol": CALLS }, /^RST_STREAM CANCEL$/],
  ["close-mid-stream", { "closed-early": CALLS }, /^the server closed the connection$/],
  [
    "goaway-mid-stream",
    { "closed-early": CALLS },
    /^the server closed the connection after GOAWAY NO_ERROR$/,
  ],
  ["silent", { timeout: CALLS }, null],
];

for (const [mode, errors, message] of EXPECT) {
  Deno.test(`gRPC vs a hostile server: ${mode}`, async () => {
    const { r, resets } = await attackMode(mode);
    const answered = Object.keys(errors).some((k) => k.startsWith("grpc "));
    const failed = Object.values(errors).reduce((a, b) => a + b, 0);
    assertEquals(
      [r.requests, r.errors, answered ? r.statusCodes : {}],
      answered ? [CALLS, {}, errors] : [CALLS - failed, errors, {}],
    );
    if (message !== null) {
      const kind = Object.keys(errors)[0];
      ok(messages(r, kind).every((m) => message.test(m)), messages(r, kind).join(" | "));
    }
    // A call refused while the server still sends is reset, so its stream closes on the server too.
    if (mode === "over-cap" || mode === "endless-stream") ok(resets >= CALLS, `${resets} resets`);
  });
}

Deno.test("gRPC vs a hostile server: grpc-status 0 under HTTP status 503 is an OK call", async () => {
  // gRPC's HTTP mapping is for an answer without grpc-status; the server's own status decides the rest.
  const { r } = await attackMode("grpc-503-ok");
  assertEquals([r.requests, r.errors, r.statusCodes], [CALLS, {}, { "200": CALLS }]);
});

Deno.test("gRPC vs a hostile server: a refused call goes again once, grpc-go's transparent retry", async () => {
  // grpc-go retries a call the server never began once (its first attempt's), HTTP/2 requests 3 times.
  const { r, requests } = await attackMode("reset-refused");
  assertEquals([r.requests, r.errors, requests], [0, { "h2-refused-stream": CALLS }, 2 * CALLS]);
  ok(messages(r, "h2-refused-stream").every((m) => / refused 2 times, not sent again$/.test(m)));
});
