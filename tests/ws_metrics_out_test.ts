/**
 * A WebSocket run's metrics outputs: a bounded connection storm at the built-in target's /ws/echo with
 * `--out otlp=URL` and `--out prometheus-remote-write=URL` into the local receiver
 * (tests/fixtures/metrics_receiver.ts). The OTLP ws counters are cumulative and end at results.json's
 * `ws` handshakes and messages each way; the remote write carries the same three series by name.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import { runLoadlab, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";
import { dataPoints, metricsReceiver } from "./fixtures/metrics_receiver.ts";

Deno.test("ws attack --out otlp and remote write: handshakes and messages each way, adding up to results.json", async () => {
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  const receiver = metricsReceiver();
  try {
    await withTempDir(async (dir) => {
      const url = `${target.url.replace("http://", "ws://")}/ws/echo`;
      const r = await runLoadlab([
        "attack",
        url,
        ...["--ws-per-connection", "4", "-n", "60", "-R", "60", "--interval", "200ms"],
        ...["--out", `otlp=${receiver.url}`, "--out", `prometheus-remote-write=${receiver.url}/api/v1/write`],
        ...["-o", `${dir}/results.json`, "--quiet"],
      ]);
      assertEquals(r.code, 0, r.stderr);
      const run = (JSON.parse(await Deno.readTextFile(`${dir}/results.json`)) as ResultsFile).runs[0];
      const ws = run.ws;
      ok(ws !== undefined && ws.messagesReceived > 0 && ws.handshakes > 0, JSON.stringify(ws));
      // Every connection's handshake counts, the pre-connected ones' apart, so every close has its
      // handshake (connections still idle at the run's end are dropped without a close frame).
      assertEquals(ws.preConnectedHandshakes, run.preConnected ?? 0);
      ok(ws.handshakes >= ws.closesSent, JSON.stringify(ws));
      const series = [
        ["loadlab.ws.handshakes", ws.handshakes],
        ["loadlab.ws.messages.sent", ws.messagesSent],
        ["loadlab.ws.messages.received", ws.messagesReceived],
      ] as const;
      for (const [name, total] of series) {
        const values = dataPoints(receiver.otlp, name).map((p) => Number(p.asInt));
        ok(values.length > 1, `${name}: a point per interval (${values.length})`);
        ok(values.every((v, i) => i === 0 || v >= values[i - 1]), `${name} cumulative: ${values}`);
        assertEquals(values.at(-1), total, name);
      }
      const names = new Set(receiver.remoteWrite.flat().map((labels) => labels.__name__));
      for (const name of ["handshakes_total", "sent_messages_total", "received_messages_total"]) {
        ok(names.has(`loadlab_ws_${name}`), `remote write has loadlab_ws_${name}: ${[...names]}`);
      }
    });
  } finally {
    await receiver.close();
    target.child.kill("SIGINT");
    await target.done;
  }
});
