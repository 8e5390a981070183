/**
 * @module
 * One gRPC call on a node:http2 session of its own, outside any load: the server's reflection, and a k6
 * script's calls in `setup()` and `teardown()`. Its messages framed and sent, its replies and status read;
 * no answer within `timeoutMs` is DEADLINE_EXCEEDED, replies past `maxReplyBytes` together an error.
 */
import type { ClientHttp2Session, IncomingHttpHeaders } from "node:http2";
import { frameMessage, MessageReader, READ_OK, READ_TOO_BIG } from "../../../grpc/framing.ts";
import { GRPC_DEADLINE_EXCEEDED, GRPC_INTERNAL, grpcStatusValue } from "../../../grpc/status.ts";

/** What one call got: its code, why when not OK, its replies' payloads, its head and trailer fields. */
type OneOffAnswer = { status: number; problem: string; replies: Uint8Array[]; fields: IncomingHttpHeaders };

/** Calls `path` (`/pkg.Service/Method`) on `session` with `messages` (each one protobuf message). */
export function oneOffCall(
  session: ClientHttp2Session,
  path: string,
  messages: Uint8Array[],
  timeoutMs: number,
  maxReplyBytes: number,
  metadata: Record<string, string> = {},
): Promise<OneOffAnswer> {
  return new Promise((done, fail) => {
    const stream = session.request({
      ...metadata,
      ":method": "POST",
      ":path": path,
      "content-type": "application/grpc",
      te: "trailers",
    });
    let fields: IncomingHttpHeaders = {};
    const replies: Uint8Array[] = [];
    const end = (status: number, problem: string) => {
      clearTimeout(timer);
      stream.close();
      done({ status, problem, replies, fields });
    };
    const late = `no answer within ${timeoutMs} ms`;
    const timer = setTimeout(() => end(GRPC_DEADLINE_EXCEEDED, late), timeoutMs);
    const reader = new MessageReader(maxReplyBytes);
    let receivedBytes = 0;
    reader.onMessage = (payload) => replies.push(payload.slice());
    stream.on("response", (h) => (fields = h));
    stream.on("data", (chunk: Uint8Array) => {
      if (stream.closed) return;
      receivedBytes += chunk.length;
      const read = receivedBytes > maxReplyBytes ? READ_TOO_BIG : reader.feed(chunk, 0, chunk.length);
      if (read === READ_OK) return;
      const why = read === READ_TOO_BIG ? `the answer passed ${maxReplyBytes} bytes` : "a malformed reply";
      end(GRPC_INTERNAL, why);
    });
    stream.on("error", (err) => (clearTimeout(timer), fail(err)));
    stream.on("trailers", (t) => (fields = { ...fields, ...t }));
    stream.on("close", () => {
      const text = new TextEncoder().encode(String(fields["grpc-status"] ?? ""));
      const status = grpcStatusValue(text, 0, text.length);
      const problem = `grpc-status ${fields["grpc-status"] ?? "missing"} ${fields["grpc-message"] ?? ""}`;
      end(status, status === 0 ? "" : problem.trim());
    });
    for (const m of messages) stream.write(frameMessage(m));
    stream.end();
  });
}
