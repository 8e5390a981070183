import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { attr, between, HttpUser } from "./runtime.ts";

Deno.test("a function of the file's as a class attribute is bound as a method; Locust's wait times are not", () => {
  class U extends HttpUser {}
  const seen: unknown[] = [];
  attr(U, "wait_time", (...a: unknown[]) => (seen.push(a[0]), 0.25));
  const user = new U();
  assertEquals(user.wait_time(), 0.25);
  assertEquals(seen, [user]); // `lambda self: ...` got the user as self
  class V extends HttpUser {}
  attr(V, "wait_time", between(1, 1));
  assertEquals(new V().wait_time(), 1);
});
