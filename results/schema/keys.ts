/**
 * @module
 * The keys results are counted and summarised by, as plain lists: load models, status slots and the
 * statuses a run expects, error kinds, percentile fields. No schema library: load isolates read them.
 */
/** The load models an executor implements; the one list of them. */
export const LOAD_MODELS = ["connections", "rate", "throughput", "count", "ramping-connections"] as const;
/** gRPC's error kinds: a broken gRPC answer, a message past the cap, then each non-OK status by name. */
export const GRPC_ERROR_KINDS = [
  "grpc-protocol",
  "grpc-too-big",
  "grpc CANCELLED",
  "grpc UNKNOWN",
  "grpc INVALID_ARGUMENT",
  "grpc DEADLINE_EXCEEDED",
  "grpc NOT_FOUND",
  "grpc ALREADY_EXISTS",
  "grpc PERMISSION_DENIED",
  "grpc RESOURCE_EXHAUSTED",
  "grpc FAILED_PRECONDITION",
  "grpc ABORTED",
  "grpc OUT_OF_RANGE",
  "grpc UNIMPLEMENTED",
  "grpc INTERNAL",
  "grpc UNAVAILABLE",
  "grpc DATA_LOSS",
  "grpc UNAUTHENTICATED",
] as const;
/** The key of a run's error messages past the bound, counted together. */
export const OTHER_MESSAGES = "(other)";
/** The bound: a kind's distinct messages are kept while their text totals this many characters. */
export const MAX_MESSAGE_CHARS_PER_KIND = 256 * 1024;
/** A check named from this mark is a runtime's own sum (a locustfile's content size): no check, not shown. */
export const SUM_MARK = "\u0000sum: ";
/** A step's checks as readers show them: without the runtimes' own sums. */
export function shownChecks<C extends { name: string }>(checks: readonly C[] | undefined): C[] {
  return (checks ?? []).filter((c) => !c.name.startsWith(SUM_MARK));
}
/** A non-OK gRPC status is a response, counted at slot `GRPC_STATUS_SLOTS_FROM + code` past HTTP's. */
export const GRPC_STATUS_SLOTS_FROM = 1000;
/** Status slots of a recorder's counts: the HTTP statuses, then gRPC's codes. */
export const STATUS_SLOTS = GRPC_STATUS_SLOTS_FROM + 17;

/**
 * The statuses a run counts as expected, inclusive ranges (k6's `expectedStatuses`); default 200 to 399.
 * None (`[]`, k6's `responseCallback: null`): its answers are unjudged, neither expected nor failed.
 */
export type ExpectedStatuses = ReadonlyArray<readonly [number, number]>;
const EXPECTED_BY_DEFAULT: ExpectedStatuses = [[200, 399]];

/** Whether an answer of `status` is expected among `expected`: false when failed, null when unjudged. */
export function isExpectedStatus(status: number, expected = EXPECTED_BY_DEFAULT): boolean | null {
  return expected.length === 0 ? null : expected.some(([min, max]) => status >= min && status <= max);
}

/** Per status slot (`statusSlotOf`) its verdict under `expected`: 0 expected, 1 failed, 2 unjudged. */
export const failedSlotsOf = (expected?: ExpectedStatuses): Uint8Array =>
  new Uint8Array(STATUS_SLOTS).map((_, slot) => [1, 0, 2][Number(isExpectedStatus(slot, expected) ?? 2)]);

/** The slot `status` counts at: itself (000-999, or a gRPC status's slot), else 0 ("no valid status"). */
export function statusSlotOf(status: number): number {
  return status >= 0 && status < STATUS_SLOTS && status !== GRPC_STATUS_SLOTS_FROM ? status : 0;
}

/** The status-code key of recorder slot `slot`: an HTTP status's number, or a gRPC status's kind. */
export function statusKey(slot: number): string {
  return slot < GRPC_STATUS_SLOTS_FROM ? String(slot) : GRPC_ERROR_KINDS[slot - GRPC_STATUS_SLOTS_FROM + 1];
}
/** Error kinds counted on the hot path; `unfinished`: unanswered when the graceful stop ended. */
export const ERROR_KINDS = [
  "connect",
  "timeout",
  "reset",
  "parse",
  "closed-early",
  "write",
  "tls",
  "unfinished",
  // HTTP/2: a protocol error, a REFUSED_STREAM past its re-sends, a GOAWAY's.
  "h2-protocol",
  "h2-refused-stream",
  "goaway",
  // A filled value that may not go where its placeholder is (CR, LF, NUL); the request is not sent.
  "bad-value",
  // A response past its step's `maxKeptBytes`, or captures past 16 MiB: the step fails.
  "body-too-large",
  // WebSocket: a refused or malformed handshake, a broken frame, an oversized or non-UTF-8 message.
  "ws-refused",
  "ws-bad-accept",
  "ws-handshake",
  "ws-protocol",
  "ws-too-big",
  "ws-bad-utf8",
  "ws-closed",
  // A session script's own failure (counted with its file:line); the session ends, the run goes on.
  "script",
  ...GRPC_ERROR_KINDS,
  // HTTP/3: an H3_* or QPACK_* error (ours or the server's close), a QUIC transport error.
  "h3-protocol",
  "quic",
] as const;

/** Each percentile field of a latency summary with the percentile it holds, lowest first. */
export const PERCENTILE_FIELDS = [
  ["p2_5", 2.5],
  ["p10", 10],
  ["p25", 25],
  ["p50", 50],
  ["p75", 75],
  ["p90", 90],
  ["p95", 95],
  ["p97_5", 97.5],
  ["p99", 99],
  ["p999", 99.9],
  ["p9999", 99.99],
] as const;
