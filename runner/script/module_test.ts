import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { errorText } from "./module.ts";

Deno.test("a thrown value's text: an Error's or a plain object's message, else the value; never a throw", () => {
  assertEquals(errorText(new TypeError("bad\nsecond line")), "bad");
  // It read "[object Object]" (a setup() that threw { message: ... } named nothing).
  assertEquals(errorText({ message: "no token" }), "no token");
  assertEquals(errorText(null), "null");
  assertEquals(errorText(42), "42");
  const hostile = {
    get message(): string {
      throw new Error("getter");
    },
  };
  assertEquals(
    errorText(hostile),
    "a thrown object that cannot be shown as text (its toString or message throws)",
  );
});
