import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { MAX_NAME_CHARS, shownName } from "./shown_name.ts";

Deno.test("a name is one line with no control characters: CR LF, ESC sequences, NUL, bidi overrides", () => {
  assertEquals(shownName("login 200"), "login 200");
  assertEquals(shownName("ok\r\nrun 2/2 x  [ok]"), "ok run 2/2 x  [ok]");
  assertEquals(shownName("red \u001b[31mX\u001b[0m done"), "red X done");
  assertEquals(shownName("a\u0000b\u202egnp.exe\tc"), "abgnp.exe c");
  assertEquals(shownName("café ✓"), "café ✓");
});

Deno.test("a long name is a readable prefix and a hash of the whole: bounded, two long names still differ", () => {
  const a = "GET /items/" + "x".repeat(1 << 20) + "a";
  const b = "GET /items/" + "x".repeat(1 << 20) + "b";
  const [sa, sb] = [shownName(a), shownName(b)];
  ok(sa.length <= MAX_NAME_CHARS && sb.length <= MAX_NAME_CHARS, `${sa.length}`);
  ok(new TextEncoder().encode(sa).length < 2048);
  ok(sa.startsWith("GET /items/xxx") && sa !== sb, sa);
  ok(/… \(1,048,588 chars, sha256:[0-9a-f]{8}\)$/.test(sa), sa);
  assertEquals(shownName(a), sa);
  const exact = "y".repeat(MAX_NAME_CHARS);
  assertEquals(shownName(exact), exact);
  // Never cut inside a surrogate pair.
  const emoji = shownName("😀".repeat(MAX_NAME_CHARS));
  ok(!/[\ud800-\udbff]…/.test(emoji), emoji.slice(-40));
});
