/**
 * Which message answers a send: echo (the next), nth, a JSON field's value; and the fan-out time read
 * from a broadcast's `"sentAt"`.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { AnswerMatch, fanoutUs } from "./answer_match.ts";

const bytes = (text: string) => new TextEncoder().encode(text);
const answers = (match: AnswerMatch, messages: string[]) =>
  messages.map((m) => {
    const b = bytes(m);
    return match.answers(b, 0, b.length);
  });

Deno.test("echo: the first message after a send answers it", () => {
  assertEquals(answers(new AnswerMatch({ kind: "echo" }), ["a", "b"]), [true, true]);
});

Deno.test("nth: the n-th message after the send; a new send counts again", () => {
  const match = new AnswerMatch({ kind: "nth", n: 3 });
  assertEquals(answers(match, ["ack", "progress", "done"]), [false, false, true]);
  match.reset();
  assertEquals(answers(match, ["ack", "progress", "done"]), [false, false, true]);
});

Deno.test("json: the first message whose field equals the value; others (and non-JSON) pass over", () => {
  const match = new AnswerMatch({ kind: "json", field: "self", equals: true });
  assertEquals(
    answers(match, ['{"self":false}', "not json", "{broken", '{"self":"true"}', '{"from":1,"self":true}']),
    [false, false, false, false, true],
  );
  assertEquals(answers(new AnswerMatch({ kind: "json", field: "id", equals: 7 }), ['{"id":7}']), [true]);
});

Deno.test("fan-out: microseconds from the target's sentAt, or -1 without one", () => {
  const msg = bytes('{"room":"a","sentAt": 1000.25,"data":"x"}');
  assertEquals(fanoutUs(msg, 0, msg.length, 1002.5), 2250);
  const none = bytes('{"room":"a","data":"sentAt"}');
  assertEquals(fanoutUs(none, 0, none.length, 5), -1);
  // A clock a hair behind the target's never makes a negative latency.
  assertEquals(fanoutUs(msg, 0, msg.length, 1000), 0);
});
