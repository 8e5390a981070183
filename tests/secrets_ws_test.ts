/**
 * End to end, a WebSocket attack: the URL's password and secret query values, `Authorization` and
 * `Cookie` handshake fields and a token passed as a subprotocol (as browsers must) reach the server as
 * they are, yet results.json, report.html, the markdown summary, JUnit, the request log and the printed
 * JSON hold only `[redacted N chars sha256:…]`; plain subprotocols and the messages stay; `--no-redact`
 * keeps the secrets.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runLoadlab, withTempDir } from "./helpers.ts";

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.wsSIGpart";
const SECRETS = ["hunter2pw", "QTOKENv41", "QKEYv4l22", "HDRauth77", "COOKIE777", JWT, "k8sTOKENpart99"];
const K8S = "base64url.bearer.authorization.k8s.io.k8sTOKENpart99";

/** Echoes messages; counts the handshakes that carried every secret as it is. */
function checkingServer() {
  const seen = { good: 0, bad: 0 };
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const url = new URL(req.url);
    const offered = (req.headers.get("sec-websocket-protocol") ?? "").split(",").map((p) => p.trim());
    const good = req.headers.get("authorization") === "Bearer HDRauth77" &&
      req.headers.get("cookie") === "sid=COOKIE777" && url.searchParams.get("token") === "QTOKENv41" &&
      url.searchParams.get("key") === "QKEYv4l22" && offered.includes(JWT) && offered.includes(K8S) &&
      (req.headers.get("authorization") !== null);
    good ? seen.good++ : seen.bad++;
    const { socket, response } = Deno.upgradeWebSocket(req, { protocol: "chat" });
    socket.onmessage = (e) => socket.send(e.data);
    return response;
  });
  return { port: server.addr.port, seen, close: () => server.shutdown() };
}

function args(port: number, dir: string): string[] {
  return [
    "attack",
    `ws://ada:hunter2pw@127.0.0.1:${port}/ws?token=QTOKENv41&key=QKEYv4l22&room=lobby`,
    ..."-H|Authorization: Bearer HDRauth77|-H|Cookie: sid=COOKIE777".split("|"),
    ...["--ws-protocol", "chat", "--ws-protocol", JWT, "--ws-protocol", K8S],
    ...["--ws-message", '{"op":"join","room":"lobby"}'],
    ..."-n 6 -c 1 --json".split(" "),
    ...["-o", `${dir}/results.json`, "--report", `${dir}/report.html`, "--summary", `${dir}/summary.md`],
    ...["--junit", `${dir}/junit.xml`, "--log", `${dir}/requests.csv`, "--threshold", "p99<5s"],
  ];
}

Deno.test("ws attack: the server gets the secrets; no output holds them; plain values stay", async () => {
  const t = checkingServer();
  try {
    await withTempDir(async (dir) => {
      const r = await runLoadlab(args(t.port, dir));
      assertEquals(r.code, 0, r.stderr);
      ok(
        t.seen.good >= 1 && t.seen.bad === 0,
        `the engine must send the real secrets: ${JSON.stringify(t.seen)}`,
      );
      const files = ["results.json", "report.html", "summary.md", "junit.xml", "requests.csv"];
      const texts = await Promise.all(files.map((f) => Deno.readTextFile(`${dir}/${f}`)));
      const leaks = [...texts, r.stdout + r.stderr].map((text) => SECRETS.filter((s) => text.includes(s)));
      assertEquals(leaks, files.map(() => []).concat([[]]), `leaked in ${[...files, "terminal"]}`);
      const results = JSON.parse(texts[0]);
      const ws = results.runs[0].config.ws;
      assertEquals(ws.protocols[0], "chat");
      ok(/^\[redacted \d+ chars sha256:[0-9a-f]{8}\]$/.test(ws.protocols[1]), ws.protocols[1]);
      assertEquals(ws.messages, ['{"op":"join","room":"lobby"}']);
      ok(results.runs[0].url.includes("room=lobby"));

      const kept = await runLoadlab([...args(t.port, dir), "--no-redact", "-q"]);
      assertEquals(kept.code, 0, kept.stderr);
      const raw = await Deno.readTextFile(`${dir}/results.json`);
      assertEquals(SECRETS.filter((s) => raw.includes(s)), SECRETS, "--no-redact keeps them");
    });
  } finally {
    await t.close();
  }
});
