/**
 * @module
 * One rule book, two strictness modes: the framer as the engine runs it (a user agent: bare LF, obs-fold and
 * Transfer-Encoding with Content-Length tolerated) and as the balancer runs it (`verbatim`: those refused).
 * On 30,000 inputs mutated from the framing table (a byte flipped, dropped or doubled, seeded), the verbatim
 * mode must never accept what the engine's mode rejects, and where both accept they must agree on where the
 * message ends, its status and its body length; each mode must give the same outcome whole and split at a
 * random byte. Deterministic: a failure names the input to replay.
 */
import { deepStrictEqual as assertEquals, ok as assert } from "node:assert/strict";
import { MessageFramer, NEED_MORE, PARSE_ERROR } from "../http1/message_framer.ts";
import { mulberry32 as rng } from "./fixtures/seeded_random.ts";
import { FRAMING_CASES } from "./framing_cases.ts";

const INPUTS = 30_000;
const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

/** `bytes` with one byte flipped, dropped or doubled at a random place. */
function mutate(bytes: Uint8Array, r: () => number): Uint8Array {
  const at = Math.floor(r() * bytes.length);
  const kind = r();
  if (kind < 0.4) {
    const out = bytes.slice();
    out[at] = r() < 0.5 ? Math.floor(r() * 256) : [13, 10, 32, 9, 44, 59, 58, 48][Math.floor(r() * 8)];
    return out;
  }
  if (kind < 0.7) return Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1)]);
  return Uint8Array.from([...bytes.subarray(0, at + 1), ...bytes.subarray(at)]);
}

/** "error", or where the message ended (-1: at EOF), its status and body length. */
function outcome(framer: MessageFramer, bytes: Uint8Array, isHead: boolean, cut: number): string {
  framer.start(isHead);
  let end = NEED_MORE;
  for (const [from, to] of [[0, cut], [cut, bytes.length]]) {
    if (from === to) continue;
    end = framer.feed(bytes, from, to);
    if (end === PARSE_ERROR) return "error";
    if (end !== NEED_MORE) break;
  }
  if (end === NEED_MORE) {
    return framer.completesAtEof() ? `eof ${framer.status} ${framer.bodyBytes}` : "incomplete";
  }
  return `${end} ${framer.status} ${framer.bodyBytes}`;
}

Deno.test(`framing modes: on ${INPUTS} mutated inputs verbatim is never laxer, and both agree when both accept`, () => {
  const r = rng(0xf4a11);
  const agent = new MessageFramer({ maxHeadBytes: 4096 });
  const verbatim = new MessageFramer({ maxHeadBytes: 4096, verbatim: true });
  const seen = { bothAccept: 0, onlyAgent: 0, bothReject: 0 };
  for (let i = 0; i < INPUTS; i++) {
    const c = FRAMING_CASES[i % FRAMING_CASES.length];
    const bytes = mutate(latin1(c.wire), r);
    const cut = Math.floor(r() * (bytes.length + 1));
    const isHead = c.head ?? false;
    const a = outcome(agent, bytes, isHead, bytes.length);
    const v = outcome(verbatim, bytes, isHead, bytes.length);
    assertEquals(outcome(agent, bytes, isHead, cut), a, `input ${i} (agent): split at ${cut}`);
    assertEquals(outcome(verbatim, bytes, isHead, cut), v, `input ${i} (verbatim): split at ${cut}`);
    if (v !== "error") {
      assert(a !== "error", `input ${i}: verbatim accepted what the agent rejects`);
      assertEquals(v, a, `input ${i}: the modes disagree`);
      seen.bothAccept++;
    } else if (a !== "error") seen.onlyAgent++;
    else seen.bothReject++;
  }
  // The mutations must reach every relation often, or the test proves little.
  for (const [k, n] of Object.entries(seen)) assert(n > INPUTS / 50, `${k}: ${n} ${JSON.stringify(seen)}`);
});
