import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { columnsOf, fitColumns, padColumns, terminalSafe, visibleLine } from "./terminal_text.ts";

Deno.test("terminalSafe drops escape sequences and control characters, keeps tabs, newlines and text", () => {
  assertEquals(terminalSafe("a\x1b[2J\x1b[1;1Hb"), "ab");
  assertEquals(terminalSafe("t\x1b]0;owned\x07x"), "tx");
  assertEquals(terminalSafe("t\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\"), "tlink");
  assertEquals(terminalSafe("over\rwrite\x08\x00\x7f\x9b31m"), "overwrite");
  assertEquals(terminalSafe("one\ttwo\nthree é 漢 \u202eevil"), "one\ttwo\nthree é 漢 evil");
  assertEquals(terminalSafe("trailing \x1b"), "trailing ");
  // Bidi marks and zero-width characters show nothing and change what the text seems to say.
  assertEquals(terminalSafe("a\u200eb\u200fc\u061cd\u200be\u200cf\u200dg\u2060h\ufeffi"), "abcdefghi");
});

Deno.test("visibleLine writes line breaks, controls, bidi and zero-width characters as escapes", () => {
  assertEquals(visibleLine("FAKE\r\nVerdict: ok"), "FAKE\\r\\nVerdict: ok");
  assertEquals(visibleLine("a\tb\x00c\x1b[2Jd\x9b"), "a\\tb\\u0000c\\u001b[2Jd\\u009b");
  assertEquals(visibleLine("x\u202ey\u2028z\u200b\ufeff"), "x\\u202ey\\u2028z\\u200b\\ufeff");
  assertEquals(visibleLine("plain é 漢 text"), "plain é 漢 text");
});

Deno.test("columns: wide characters take two, combining marks none; a cut keeps both ends", () => {
  assertEquals(columnsOf("GET /json"), 9);
  assertEquals(columnsOf("商品"), 4);
  assertEquals(columnsOf("e\u0301"), 1);
  assertEquals(fitColumns("GET /json", 9), "GET /json");
  assertEquals(fitColumns("GET /api/users/orders", 11), "GET /…rders");
  assertEquals(fitColumns("/商品/一覧/詳細", 9), "/商…/詳細");
  for (const n of [1, 5, 8, 13]) ok(columnsOf(fitColumns("/商品/一覧/詳細/x", n)) <= n, String(n));
  assertEquals(fitColumns("[ 1.0s]  120 req  | GET /a 40/s", 12, "start"), "[ 1.0s]  12…");
  assertEquals(padColumns("商品", 6), "商品  ");
  assertEquals(padColumns("12", 5, "start"), "   12");
});
