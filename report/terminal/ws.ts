/**
 * @module
 * The WebSocket facts of a run: the terminal summary's block and the page's run facts. Pure.
 */
import type { RunResult } from "../../results/mod.ts";
import { formatBytes, formatCount, formatDurationMs } from "../../results/text_format.ts";
import { wsFlood } from "../../results/conclude/ws_runs.ts";

/** A WebSocket run's facts as label and text, for this block and the page's run facts; none for HTTP. */
export function wsFacts(run: RunResult): Array<[string, string]> {
  const ws = run.ws;
  if (ws === undefined) return [];
  const facts: Array<[string, string]> = [
    ["WebSocket", "requests are messages answered; latency is each one's round trip from its intended send"],
    ["Handshakes", handshakeLine(ws)],
    ...(ws.deflateOffered ? [["Deflate", deflateLine(ws)] as [string, string]] : []),
    [
      "Messages",
      `${formatCount(ws.messagesSent)} sent (${formatBytes(ws.payloadBytesSent)}), ` +
      `${formatCount(ws.messagesReceived)} received (${formatBytes(ws.payloadBytesReceived)})`,
    ],
  ];
  if (ws.unsolicited > 0) {
    const fanout = ws.fanoutMs
      ? `; fan-out p50 ${formatDurationMs(ws.fanoutMs.p50)}, p99 ${formatDurationMs(ws.fanoutMs.p99)}`
      : "";
    facts.push(["Unsolicited", `${formatCount(ws.unsolicited)} server messages answered no send${fanout}`]);
  }
  const flood = wsFlood(run);
  if (flood !== null) {
    facts.push([
      "Match rule",
      `${flood.rule} took whatever came next as each answer, amid ${
        formatCount(Math.round(flood.perAnswer))
      } unsolicited messages per answer: --ws-match is probably wrong (json:FIELD=VALUE picks the answer)`,
    ]);
  }
  if (ws.pingsSent > 0) {
    facts.push(["Pings", `${formatCount(ws.pingsSent)} sent, ${formatCount(ws.pongsReceived)} pongs`]);
  }
  const codes = Object.entries(ws.closeCodes).map(([code, n]) => `${code} x${formatCount(n)}`);
  facts.push([
    "Closes",
    `${formatCount(ws.closesSent)} sent; server codes ${codes.length ? codes.join(", ") : "none"}` +
    (ws.closeCodes["1006"] ? " (1006: closed without a close frame)" : ""),
  ]);
  return facts;
}

/** The block's lines; empty for an HTTP run. */
export function wsLines(run: RunResult, bold: (s: string) => string): string[] {
  const [about, ...facts] = wsFacts(run);
  if (about === undefined) return [];
  return [
    bold("WebSocket:"),
    `  ${about[1][0].toUpperCase()}${about[1].slice(1)}.`,
    ...facts.map(([label, text]) => `  ${`${label}:`.padEnd(13)}${text}`),
  ];
}

/** How many handshakes that offered permessage-deflate got it. */
function deflateLine(ws: NonNullable<RunResult["ws"]>): string {
  const offered = ws.deflateOffered ?? 0, agreed = ws.deflateAgreed ?? 0;
  const rest = offered - agreed;
  const uncompressed = rest > 0 ? `; ${formatCount(rest)} ran uncompressed` : "";
  return `permessage-deflate agreed on ${formatCount(agreed)} of ${formatCount(offered)} handshakes that ` +
    `offered it${uncompressed}`;
}

/** Every handshake, the pre-connected pool's said apart (the times are the measured run's). */
function handshakeLine(ws: NonNullable<RunResult["ws"]>): string {
  const early = ws.preConnectedHandshakes ?? 0;
  const times = ws.handshakeMs
    ? `p50 ${formatDurationMs(ws.handshakeMs.p50)}, p99 ${formatDurationMs(ws.handshakeMs.p99)}`
    : "";
  if (early === 0) return `${formatCount(ws.handshakes)}${times ? ` (${times})` : ""}`;
  const measured = ws.handshakes - early;
  return `${formatCount(ws.handshakes)} (${formatCount(early)} before the measured run, pre-connected; ` +
    `${times ? `${times} of the other ${formatCount(measured)}` : `${formatCount(measured)} in it`})`;
}
