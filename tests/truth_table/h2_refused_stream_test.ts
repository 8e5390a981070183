/**
 * @module
 * Truth table, HTTP/2 REFUSED_STREAM: a server that resets a stream with REFUSED_STREAM did no processing
 * of its request (RFC 9113 8.7), so the client sends it again, as after a GOAWAY. A server refusing every
 * other stream is healthy: every request is answered once, the success rate is 100%, the verdict is ok and
 * the re-sends are counted beside the requests (`retried`). A server refusing every stream cannot keep a
 * request going round: after its re-sends each request counts once as `h2-refused-stream`, the message
 * saying how often it was refused, and the run fails (exit 4), on time.
 */
import assert from "node:assert/strict";
import { attackJson } from "../tls_fixtures.ts";
import { type H2Script, startH2ScriptServer } from "../fixtures/h2_script_server.ts";
import { FRAME, H2_ERROR, words } from "../fixtures/h2_frames_testing.ts";
import { epollBlocker } from "../../runner/http/transport/choice.ts";

const EPOLL_BLOCKER = epollBlocker(new URL("http://127.0.0.1/"));
/** A run of 40 requests ends in well under a second here; this bound is for a busy machine. */
const BOUND_MS = 30_000;

async function attackScript(script: H2Script, transport: string) {
  const server = startH2ScriptServer(script);
  try {
    const started = performance.now();
    // One stream per connection: the nth stream of a connection is the nth request sent on it, so a
    // request refused once goes again on the next stream, which the server answers.
    const r = await attackJson(
      [`${server.origin}/`, "--protocol", "h2c", "--streams", "1"],
      transport,
      40,
      2,
    );
    assert.ok(performance.now() - started < BOUND_MS, "the run ended in bounded time");
    assert.ok(r.json, r.stderr);
    return r;
  } finally {
    await server.close();
  }
}

const refuse = (id: number, w: Parameters<H2Script["answer"]>[1]) =>
  w.frame(FRAME.RST_STREAM, 0, id, words(H2_ERROR.REFUSED_STREAM));

for (const transport of ["deno", "epoll"] as const) {
  const ignore = transport === "epoll" && EPOLL_BLOCKER !== null;
  Deno.test({
    name:
      `REFUSED_STREAM on every other stream [${transport}]: re-sent, counted once as answered and as retried`,
    ignore,
    async fn() {
      const r = await attackScript(
        { answer: (id, w, n) => n % 2 === 1 ? refuse(id, w) : w.ok(id) },
        transport,
      );
      assert.equal(r.code, 0, r.stderr);
      const run = r.json;
      assert.deepEqual([run.requests, run.statusCodes, run.errors], [40, { "200": 40 }, {}]);
      assert.equal(run.successRate, 1);
      assert.ok(run.retried > 0 && run.retried <= 40, `refused streams are re-sent: ${run.retried}`);
      assert.equal(run.verdict.label, "ok");
    },
  });

  Deno.test({
    name:
      `REFUSED_STREAM on every stream [${transport}]: each request counted once, refused 4 times, the run fails`,
    ignore,
    async fn() {
      const r = await attackScript({ answer: (id, w) => refuse(id, w) }, transport);
      assert.equal(r.code, 4, r.stderr);
      const run = r.json;
      assert.deepEqual([run.requests, run.errors], [0, { "h2-refused-stream": 40 }]);
      assert.deepEqual(run.errorMessages, {
        "h2-refused-stream": { "RST_STREAM REFUSED_STREAM: refused 4 times, not sent again": 40 },
      });
      // Three re-sends of each request, each counted beside it.
      assert.equal(run.retried, 120);
      assert.match(run.verdict.label, /^failed/);
    },
  });
}
