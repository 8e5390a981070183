import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { attr, between, classOrder, HttpUser, LoadTestShape, locustfile, shapePoints } from "./runtime.ts";

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

Deno.test("users take their classes in Locust's dispatch order: fixed_count first, then by weight", () => {
  const cls = (name: string, weight: number, fixed_count?: number) => {
    const c = class extends HttpUser {};
    Object.defineProperty(c, "name", { value: name });
    return Object.assign(c, { weight, fixed_count });
  };
  const order = (users: ReturnType<typeof cls>[], n: number) =>
    classOrder(users, n).map((c) => c.name).join("");
  // What Locust 2.47's dispatcher yields for the same classes (10 users at 3:1 are 7 and 3).
  assertEquals(order([cls("R", 3), cls("W", 1)], 12), "RWRRRWRRRWRR");
  assertEquals(order([cls("A", 2), cls("B", 3), cls("C", 1)], 12), "BACBABBACBAB");
  assertEquals(order([cls("R", 1), cls("F", 1, 2)], 5), "FFRRR");
});

Deno.test("a shape ticks each second while a slow ramp runs, as Locust's shape worker beside its runner", async () => {
  class U extends HttpUser {}
  const ticks: number[] = [];
  class Ramp extends LoadTestShape {
    tick() {
      ticks.push(Math.floor(this.get_run_time()));
      return this.get_run_time() > 4 ? null : this.get_run_time() < 2 ? [3, 1.5] : [1, 10];
    }
  }
  locustfile({ U }, Ramp, () => ({}), () => {});
  const points = await shapePoints(60_000);
  // Users at 0, 0.67 and 1.33 s; the tick at 2 s (not 3.33 s) lowers them to 1; the tick past 4 s ends it.
  assertEquals(ticks, [0, 1, 2, 3, 4]);
  assertEquals(points, [[0, 1], [667, 2], [1333, 3], [2000, 1], [4000, 1]]);
});
