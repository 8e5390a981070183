import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { MAX_NAME_CHARS, shownName } from "./shown_name.ts";

const CLEANED = / \(cleaned, sha256:[0-9a-f]{8}\)$/;

Deno.test("a name is one line with its control characters escaped: CR LF, ESC sequences, NUL, bidi overrides", () => {
  assertEquals(shownName("login 200"), "login 200");
  assertEquals(shownName("café ✓"), "café ✓");
  const cases: Array<[string, string]> = [
    ["ok\r\nrun 2/2 x  [ok]", "ok\\r\\nrun 2/2 x  [ok]"],
    ["red \u001b[31mX\u001b[0m done", "red \\u001b[31mX\\u001b[0m done"],
    ["a\u0000b\u202egnp.exe\tc", "a\\u0000b\\u202egnp.exe\\tc"],
    // Bidi marks and zero-width characters are shown as the overrides are.
    ["ad\u200emin\u200f \u061clogin", "ad\\u200emin\\u200f \\u061clogin"],
    ["p\u200ba\u200cy\u200d \u2060n\ufeffow", "p\\u200ba\\u200cy\\u200d \\u2060n\\ufeffow"],
  ];
  for (const [given, shown] of cases) {
    const out = shownName(given);
    ok(out.startsWith(shown + " ") && CLEANED.test(out), JSON.stringify(out));
  }
});

Deno.test("a name cleaning changed stays apart from the plain one and from others, never empty", () => {
  const names = ["admin", "ad\u200bmin", "ad\u200cmin", "admin\ufeff", "\u200b", "\u200e\u200f", ""];
  const shown = names.map(shownName);
  assertEquals(new Set(shown).size, names.length, JSON.stringify(shown));
  assertEquals(shown[0], "admin");
  assertEquals(shown[4], `\\u200b (cleaned, sha256:${shown[4].slice(-9, -1)})`);
  ok(shown.slice(1, -1).every((n) => CLEANED.test(n)), JSON.stringify(shown));
  assertEquals(shownName("ad\u200bmin"), shown[1]);
  // A long cleaned name keeps the long name's form: prefix and hash, bounded.
  const long = shownName("\u200b" + "z".repeat(MAX_NAME_CHARS - 2));
  ok(long.length <= MAX_NAME_CHARS && /… \(\d+ chars, sha256:[0-9a-f]{8}\)$/.test(long), long);
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

Deno.test("a name in a decomposed Unicode form is marked apart from the composed one it looks like", () => {
  // "é" as one code point (NFC) and as "e" and a combining accent (NFD) look alike in every output.
  const composed = "caf\u00e9 login";
  const decomposed = composed.normalize("NFD");
  assertEquals(shownName(composed), composed);
  const shown = shownName(decomposed);
  ok(shown.startsWith(composed + " ") && CLEANED.test(shown), JSON.stringify(shown));
  assertEquals(shownName("\u212b"), shownName("\u212b"), "the same name, the same shown name");
  ok(shownName("\u212b") !== shownName("\u00c5"), "an Angstrom sign is not the letter it looks like");
});

Deno.test("a lone surrogate becomes U+FFFD, marked: JSON kept it only as an escape strict readers refuse", () => {
  const shown = shownName("a\ud800b");
  ok(shown.startsWith("a\ufffdb ") && CLEANED.test(shown), JSON.stringify(shown));
  ok(shown.isWellFormed());
});
