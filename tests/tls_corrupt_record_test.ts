/**
 * A record that fails its integrity check after the handshake (one bit flipped in transit by a relay in
 * front of a TLS 1.2 `node:tls` server) ends the connection as a `tls` failure naming TLS on every client,
 * the same verdict on each: not a "connection reset by peer" the peer never sent. Bounded runs (-n),
 * loopback only.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import * as net from "node:net";
import * as nodeTls from "node:tls";
import { requireProgram, withTempDir } from "./helpers.ts";
import {
  attackJson,
  EPOLL_TLS_BLOCKER,
  makeTlsFixtures,
  TLS_CLIENTS,
  type TlsFixtures,
} from "./tls_fixtures.ts";

/** Starts `server` on an ephemeral loopback port; its port. */
function listen(server: net.Server): Promise<number> {
  return new Promise((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port))
  );
}

/**
 * A TLS 1.2 server answering every request with a kept-alive 200, behind a relay that passes whole
 * records and flips the last bit of each connection's first application-data record (type 23: in TLS
 * 1.2 only application data has it).
 */
async function corruptingServer(f: TlsFixtures) {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
    socket.on("close", () => sockets.delete(socket));
  };
  const tls = nodeTls.createServer({
    cert: Deno.readTextFileSync(f.serverCert),
    key: Deno.readTextFileSync(f.serverKey),
    maxVersion: "TLSv1.2",
  }, (socket) => {
    track(socket);
    socket.on("data", () => socket.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"));
  });
  const tlsPort = await listen(tls);
  const relay = net.createServer((client) => {
    track(client);
    const upstream = net.connect(tlsPort, "127.0.0.1");
    track(upstream);
    client.pipe(upstream);
    let held = new Uint8Array(0);
    let flipped = false;
    upstream.on("data", (chunk: Uint8Array) => {
      const all = new Uint8Array(held.length + chunk.length);
      all.set(held);
      all.set(chunk, held.length);
      let at = 0;
      while (all.length - at >= 5 && all.length - at >= 5 + ((all[at + 3] << 8) | all[at + 4])) {
        const record = all.slice(at, at + 5 + ((all[at + 3] << 8) | all[at + 4]));
        if (record[0] === 23 && !flipped) {
          record[record.length - 1] ^= 1;
          flipped = true;
        }
        client.write(record);
        at += record.length;
      }
      held = all.slice(at);
    });
  });
  const port = await listen(relay);
  return {
    port,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => relay.close(resolve));
      await new Promise((resolve) => tls.close(resolve));
    },
  };
}

for (const { transport, insecure } of TLS_CLIENTS) {
  Deno.test({
    name: `https [${transport}${
      insecure ? " --insecure" : ""
    }]: a record failing its integrity check is a tls error`,
    ignore: transport === "epoll" && EPOLL_TLS_BLOCKER !== null,
    async fn() {
      if (!requireProgram("openssl")) return;
      await withTempDir(async (dir) => {
        const f = await makeTlsFixtures(dir);
        const server = await corruptingServer(f);
        try {
          const tlsArgs = insecure ? ["--insecure"] : ["--cacert", f.ca];
          const r = await attackJson([`https://127.0.0.1:${server.port}/`, ...tlsArgs], transport, 2, 1);
          const what = JSON.stringify(r.json.errorMessages);
          assertEquals(r.json.statusCodes, {}, what);
          assertEquals(r.json.errors, { tls: 2 }, what);
          ok(Object.keys(r.json.errorMessages.tls).every((m) => !/os error/.test(m)), what);
        } finally {
          await server.stop();
        }
      });
    },
  });
}
