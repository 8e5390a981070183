/**
 * @module
 * Which server message answers a send: `echo` (the first after it), `nth` (the n-th), or `json` (the first
 * whose top-level `field` equals `equals`); those passed over are unsolicited.
 */
import type { WsConfig } from "./config.ts";

type MatchRule = WsConfig["match"];

export class AnswerMatch {
  #seen = 0;
  readonly #decoder = new TextDecoder();

  constructor(readonly rule: MatchRule) {}

  reset(): void {
    this.#seen = 0;
  }

  /** Whether buf[start, end), a message read while a send waits, is its answer. */
  answers(buf: Uint8Array, start: number, end: number): boolean {
    const rule = this.rule;
    if (rule.kind === "echo") return true;
    if (rule.kind === "nth") return ++this.#seen >= rule.n;
    if (buf[start] !== 0x7b) return false; // not a JSON object
    try {
      const value = JSON.parse(this.#decoder.decode(buf.subarray(start, end)));
      return value !== null && typeof value === "object" && value[rule.field] === rule.equals;
    } catch {
      return false;
    }
  }
}

/** The echo rule's matcher, which counts nothing: shared by every connection of the isolate. */
const ECHO_MATCH = new AnswerMatch({ kind: "echo" });

/** A connection's matcher for `rule`: the shared one for echo, else its own (it counts). */
export function answerMatchOf(rule: MatchRule): AnswerMatch {
  return rule.kind === "echo" ? ECHO_MATCH : new AnswerMatch(rule);
}

/** The field a broadcast carries its send time in (epoch ms), written by the target. */
const FANOUT_FIELD = new TextEncoder().encode('"sentAt":');

/** µs from the `"sentAt": <epoch ms>` in buf[start, end) to `nowEpochMs`, or -1 when there is none. */
export function fanoutUs(buf: Uint8Array, start: number, end: number, nowEpochMs: number): number {
  const field = FANOUT_FIELD;
  const last = end - field.length;
  outer: for (let i = start; i <= last; i++) {
    for (let k = 0; k < field.length; k++) if (buf[i + k] !== field[k]) continue outer;
    let at = i + field.length;
    while (at < end && buf[at] === 0x20) at++;
    let ms = 0, scale = 0, digits = 0;
    for (; at < end; at++) {
      const c = buf[at];
      if (c === 0x2e && scale === 0) scale = 1;
      else if (c >= 0x30 && c <= 0x39) {
        digits++;
        if (scale === 0) ms = ms * 10 + (c - 0x30);
        else ms += (c - 0x30) / (scale *= 10);
      } else break;
    }
    return digits === 0 ? -1 : Math.max(0, (nowEpochMs - ms) * 1000);
  }
  return -1;
}
