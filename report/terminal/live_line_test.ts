import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { columnsOf } from "../../validation/terminal_text.ts";
import { renderLiveLine } from "./live_line.ts";

const STATS = { elapsedSec: 3.2, totalSec: 10, requests: 12_345, rps: 4_100, p99Ms: 2.5, errors: 3 };

Deno.test("the live line of several endpoints ends with the busiest, by rate", () => {
  const line = renderLiveLine({
    ...STATS,
    endpoints: [{ name: "GET /json", rps: 3_000 }, { name: "POST /login", rps: 800.4 }, {
      name: "GET /",
      rps: 300,
    }],
  });
  ok(line.endsWith("errors  | GET /json 3,000/s, POST /login 800/s, GET / 300/s"), line);
  assertEquals(renderLiveLine(STATS).endsWith("3 errors"), true);
});

Deno.test("the live line keeps within the terminal's columns, names on one line and cut", () => {
  const endpoints = [
    { name: "GET /\x1b[2J\r\nfake line", rps: 10 },
    { name: `GET /${"deep/".repeat(20)}end`, rps: 5 },
  ];
  const full = renderLiveLine({ ...STATS, endpoints });
  ok(full.includes("| GET /\\u001b[…\\nfake line 10/s, ") && !full.includes("\x1b"), full);
  ok(full.endsWith(", GET /deep/de…ep/deep/end 5/s"), full);
  const cut = renderLiveLine({ ...STATS, endpoints }, 100);
  assertEquals(columnsOf(cut), 100);
  ok(cut.endsWith("…") && full.startsWith(cut.slice(0, -1)), cut);
  // The numbers alone fit as they were.
  assertEquals(renderLiveLine(STATS, 100), renderLiveLine(STATS));
});
