import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { builtins, format, getitem, kw, method, mod, PyError, slice, str } from "./py.ts";

Deno.test("Python's values as a locustfile's helpers read them", () => {
  assertEquals(slice([1, 2, 3, 4], -2, null), [3, 4]);
  assertEquals(slice("abcdef", null, null, -2), "fdb");
  assertEquals(getitem([1, 2, 3], -1), 3);
  throws(() => getitem({ a: 1 }, "b"), (e: unknown) => e instanceof PyError && e.pyType === "KeyError");
  assertEquals(format(3.14159, ".2f"), "3.14");
  assertEquals(format(7, ">4"), "   7");
  assertEquals(format(1234567, ","), "1,234,567");
  assertEquals(mod("%s has %d items", ["cart", 3.9]), "cart has 3 items");
  assertEquals(method("a-b-c", "split", "-", 1), ["a", "b-c"]);
  assertEquals(method("{} and {name}", "format", 1, kw({ name: "x" })), "1 and x");
  assertEquals(method({ a: 1 }, "get", "b", 0), 0);
  assertEquals(str([1, "a", null, true, 2.5]), "[1, 'a', None, True, 2.5]");
  assertEquals(str(builtins.enumerate(["a"], 1)), "[(1, 'a')]");
  assertEquals(builtins.sorted([3, 1, 2], kw({ reverse: true })), [3, 2, 1]);
  assertEquals(builtins.int("42"), 42);
  throws(() => builtins.int("4x"), (e: unknown) => e instanceof PyError && e.pyType === "ValueError");
});
