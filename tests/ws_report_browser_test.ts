/**
 * A WebSocket run in the HTML report, in a real browser: the run's details say what its requests are
 * (messages answered) and show handshakes, how many got the permessage-deflate they offered, messages each
 * way, fan-out and close codes, with no console
 * complaint. The results come from a real run against the built-in target's `/ws/room`.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { createTargetApp } from "../targets/app/app.ts";
import { parseAttackConfig } from "../runner/config.ts";
import { runAttack } from "../runner/attack.ts";
import { renderReport } from "../report/html/render.ts";
import { buildResultsFile } from "../results/io.ts";
import { openReport } from "./browser.ts";

Deno.test({
  name: "report: a WebSocket run's details show its ws section",
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const target = createTargetApp();
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, target.fetch);
    const dir = await Deno.makeTempDir({ prefix: "loadlab-ws-report-" });
    try {
      const run = await runAttack(parseAttackConfig({
        url: `ws://127.0.0.1:${server.addr.port}/ws/room?room=r`,
        model: "count",
        connections: 3,
        requests: 30,
        timeoutMs: 3000,
        // Offered to a server without permessage-deflate: the page says the run went uncompressed.
        ws: { match: { kind: "json", field: "self", equals: true }, deflate: true },
      } as never));
      const path = `${dir}/report.html`;
      const results = buildResultsFile({ experiment: { name: "attack", source: "ws test" }, runs: [run] });
      await Deno.writeTextFile(path, renderReport(results));
      // One run: its details are the page (no run picker).
      const visit = await openReport(path, (page) => page.textContent("#app"));
      assertEquals(visit.problems, []);
      const text = visit.value ?? "";
      ok(text.includes("requests are messages answered"), text.slice(0, 400));
      ok(/Handshakes\s*3 \(/.test(text) && text.includes("30 sent") && text.includes("fan-out p50"), text);
      ok(
        text.includes("permessage-deflate agreed on 0 of 3 handshakes that offered it; 3 ran uncompressed"),
        text,
      );
    } finally {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
