/**
 * A WebSocket run split in 2 segments and merged: a connection storm (`--ws-per-connection`) at the
 * built-in target's /ws/echo from 2 `loadlab attack --segment i/2` processes with one shared
 * `--start-at`, then `loadlab merge`. The merged `ws` section is the sum of the shards' (handshakes,
 * messages and bytes each way, closes, close codes by code) and its handshake histogram holds every
 * shard's handshakes. Bounded: 40 connections of 4 messages per shard at 80/s.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import type { ResultsFile } from "../results/mod.ts";
import type { WsResult } from "../results/schema/ws.ts";
import { decodeHistogram } from "../results/histogram.ts";
import { runLoadlab, shardsOnTime, withTempDir } from "./helpers.ts";
import { startLoadlab } from "./background.ts";

const COUNTERS = [
  "handshakes",
  "messagesSent",
  "messagesReceived",
  "payloadBytesSent",
  "payloadBytesReceived",
  "unsolicited",
  "pingsSent",
  "pongsReceived",
  "closesSent",
] as const;

const histogramTotal = (encoded: string | undefined) =>
  encoded === undefined ? 0 : decodeHistogram(encoded).totalCount;

Deno.test("ws run in 2 segments, merged: the ws counts are the shards' sum", async () => {
  const target = await startLoadlab(["serve", "--port", "0"], /listening on (http:\/\/\S+)/);
  try {
    await withTempDir(async (dir) => {
      const url = `${target.url.replace("http://", "ws://")}/ws/echo`;
      const files = [0, 1].map((i) => `${dir}/shard-${i}.json`);
      const readRun = async (i: number) =>
        (JSON.parse(await Deno.readTextFile(files[i])) as ResultsFile).runs[0];
      await shardsOnTime(2, (i, startAt) =>
        runLoadlab([
          "attack",
          url,
          ...[
            "--ws-per-connection",
            "4",
            "-n",
            "80",
            "-R",
            "80",
            "--segment",
            `${i}/2`,
            "--start-at",
            startAt,
          ],
          ...["-o", files[i], "--quiet"],
        ]), async (i) => [(await readRun(i)).segment?.lateMs ?? 0]);
      const parts: WsResult[] = [];
      for (const file of files) {
        const ws = (JSON.parse(await Deno.readTextFile(file)) as ResultsFile).runs[0].ws;
        ok(ws !== undefined && ws.messagesReceived > 0, `${file}: a ws section with answers`);
        parts.push(ws);
      }
      const merge = await runLoadlab(["merge", ...files, "-o", `${dir}/merged.json`]);
      assertEquals(merge.code, 0, merge.stderr);
      const ws = (JSON.parse(await Deno.readTextFile(`${dir}/merged.json`)) as ResultsFile).runs[0].ws;
      ok(ws !== undefined, "the merged run keeps its ws section");
      for (const key of COUNTERS) assertEquals(ws[key], parts[0][key] + parts[1][key], key);
      const codes = new Set([...Object.keys(parts[0].closeCodes), ...Object.keys(parts[1].closeCodes)]);
      for (const code of codes) {
        assertEquals(
          ws.closeCodes[code],
          (parts[0].closeCodes[code] ?? 0) + (parts[1].closeCodes[code] ?? 0),
          `close code ${code}`,
        );
      }
      assertEquals(Object.keys(ws.closeCodes).length, codes.size);
      // Every measured handshake of both shards is in the merged histogram (the pre-connected ones, made
      // before the measured run, are counted but not timed), and each shard's histogram held its own.
      const measured = (w: WsResult) => {
        ok(w.preConnectedHandshakes !== undefined, "pre-connected handshakes counted");
        return w.handshakes - w.preConnectedHandshakes;
      };
      assertEquals(
        ws.preConnectedHandshakes,
        (parts[0].preConnectedHandshakes ?? 0) + (parts[1].preConnectedHandshakes ?? 0),
      );
      parts.forEach((p, i) =>
        assertEquals(histogramTotal(p.handshakeHistogramEncoded), measured(p), `shard ${i}`)
      );
      assertEquals(histogramTotal(ws.handshakeHistogramEncoded), measured(ws));
      ok(ws.handshakes > 0 && ws.handshakeMs !== null, "handshakes timed");
      ok(
        ws.handshakeMs.max === Math.max(parts[0].handshakeMs!.max, parts[1].handshakeMs!.max),
        "max of the maxes",
      );
    });
  } finally {
    target.child.kill("SIGINT");
    await target.done;
  }
});
