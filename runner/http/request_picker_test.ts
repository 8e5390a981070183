import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { RequestMix } from "./request.ts";
import { RequestPicker } from "./request_picker.ts";
import { requestSpec } from "../../tests/fixtures/request_spec.ts";

Deno.test("the picker fixes each request's endpoint when it picks it, one by one and pipelined", () => {
  const mix = new RequestMix(
    new URL("http://127.0.0.1:9/"),
    [requestSpec({ path: "/a", weight: 3 }), requestSpec({ path: "/b" })],
    0,
    [],
    [4, 7],
  );
  const picker = new RequestPicker(mix, 4);
  const one: number[] = [];
  for (let k = 0; k < 8; k++) {
    picker.pick(1, null);
    one.push(picker.endpointOf(0));
  }
  // 3:1 each cycle of four, as the mix picks.
  assertEquals(one.filter((e) => e === 4).length, 6);
  assertEquals(one.filter((e) => e === 7).length, 2);
  picker.pick(4, null);
  const batch = [0, 1, 2, 3].map((k) => picker.endpointOf(k));
  assertEquals(batch.sort(), [4, 4, 4, 7]);
  // A flow step's own request carries its endpoint.
  picker.pick(1, { ...mix.requests[1], endpoint: 9 });
  assertEquals(picker.endpointOf(0), 9);
});
