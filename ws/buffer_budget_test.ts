/**
 * @module
 * The worker's budget for messages in progress, through the frame parser: connections that share it
 * gather partial messages until it is full, the next one that needs room is refused as `too-big` with
 * the reason and the flag to raise, and every byte comes back when a message is handed over (a big
 * buffer is let go) or a connection ends (`release`).
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { FrameParser, type FrameSink } from "./frame_parser.ts";
import { BufferBudget } from "./buffer_budget.ts";

const KIB = 1024;

function counting(): { sink: FrameSink; messages: number[] } {
  const messages: number[] = [];
  const sink: FrameSink = {
    onMessage: (_text, _b, s, e) => messages.push(e - s),
    onPing: () => {},
    onPong: () => {},
    onClose: () => {},
  };
  return { sink, messages };
}

/** A binary frame's header for a payload of `length` bytes (126 <= length < 65536). */
function header16(length: number): Uint8Array {
  return Uint8Array.of(0x82, 0x7e, length >> 8, length & 0xff);
}

/** Feeds a 60 KiB binary frame's header and its first `bytes` of payload. */
function partial(parser: FrameParser, bytes: number): boolean {
  const head = header16(60 * KIB);
  return parser.feed(head, 0, head.length) && parser.feed(new Uint8Array(bytes), 0, bytes);
}

Deno.test("partial messages fill the worker's budget; the next one that needs room is refused, naming the flag", () => {
  const budget = new BufferBudget(128 * KIB);
  const parsers = [0, 1, 2].map(() => new FrameParser(counting().sink, 64 * KIB, false, budget));
  ok(partial(parsers[0], 40 * KIB));
  ok(partial(parsers[1], 40 * KIB));
  assertEquals(budget.usedBytes, 128 * KIB);
  assertEquals(partial(parsers[2], 40 * KIB), false);
  assertEquals(parsers[2].fault, "too-big");
  ok(parsers[2].faultMessage.includes("131072-byte budget"), parsers[2].faultMessage);
  ok(parsers[2].faultMessage.includes("--ws-max-buffered"), parsers[2].faultMessage);
  // A connection that ends gives its buffer back, and another message fits again.
  parsers[0].release();
  assertEquals(budget.usedBytes, 64 * KIB);
  ok(partial(new FrameParser(counting().sink, 64 * KIB, false, budget), 40 * KIB));
  for (const p of parsers) p.release();
});

Deno.test("a message handed over lets its big buffer go back; a small kept one stays counted until release", () => {
  const budget = new BufferBudget(1024 * KIB);
  const big = counting();
  const parser = new FrameParser(big.sink, 256 * KIB, false, budget);
  // 100 KiB cut across reads: gathered, handed over, then its buffer (over the kept size) let go.
  const head = Uint8Array.of(0x82, 0x7f, 0, 0, 0, 0, 0, 1, 0x90, 0x00);
  parser.feed(head, 0, head.length);
  for (let i = 0; i < 4; i++) parser.feed(new Uint8Array(25 * KIB), 0, 25 * KIB);
  assertEquals([big.messages, budget.usedBytes], [[100 * KIB], 0]);
  // 3 KiB in two reads: its 4 KiB buffer is kept for the next one, counted, and released at the end.
  const small = header16(3 * KIB);
  parser.feed(small, 0, small.length);
  parser.feed(new Uint8Array(1 * KIB), 0, 1 * KIB);
  parser.feed(new Uint8Array(2 * KIB), 0, 2 * KIB);
  assertEquals([big.messages, budget.usedBytes], [[100 * KIB, 3 * KIB], 4 * KIB]);
  parser.release();
  assertEquals(budget.usedBytes, 0);
});

Deno.test("a message that arrives whole in one read takes nothing from the budget", () => {
  const budget = new BufferBudget(256 * KIB);
  const got = counting();
  const parser = new FrameParser(got.sink, 64 * KIB, false, budget);
  const frame = new Uint8Array(4 + 60 * KIB);
  frame.set(header16(60 * KIB));
  ok(parser.feed(frame, 0, frame.length));
  assertEquals([got.messages, budget.usedBytes], [[60 * KIB], 0]);
});
