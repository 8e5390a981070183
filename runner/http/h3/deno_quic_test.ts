/**
 * deno_quic.ts against a QUIC server on Deno's public API in this process: streams opened as bare rids carry
 * a request (small, or 180 KB) to its FIN and its answer back, leave no resource behind once closed, and a
 * receive side closed early stops the server's sending. Bounded in streams and time; nothing is timed.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { withTempDir } from "../../../tests/helpers.ts";
import { makeTlsFixtures } from "../../../tests/tls_fixtures.ts";
import { bareStreamOpener as streamOpener, core } from "./deno_quic.ts";

const text = new TextEncoder();
const resources = () => (core as unknown as { resources(): Record<number, string> }).resources();

/** Runs `fn` with two connections to a server that echoes each request after `answer:` (`flood`: floods). */
async function withQuic(fn: (conns: Deno.QuicConn[], flooded: Promise<string>) => Promise<void>) {
  await withTempDir(async (dir) => {
    const tls = await makeTlsFixtures(dir);
    const endpoint = new Deno.QuicEndpoint({ hostname: "127.0.0.1", port: 0 });
    const cert = await Deno.readTextFile(tls.serverCert);
    const key = await Deno.readTextFile(tls.serverKey);
    const listener = endpoint.listen({ alpnProtocols: ["h3"], cert, key });
    let flooded = (_why: string) => {};
    const floodEnd = new Promise<string>((resolve) => flooded = resolve);
    const answer = async (stream: Deno.QuicBidirectionalStream) => {
      const request = new Uint8Array(await new Response(stream.readable).arrayBuffer());
      const writer = stream.writable.getWriter();
      if (new TextDecoder().decode(request) !== "flood") {
        await writer.write(Uint8Array.from([...text.encode("answer:"), ...request]));
        return await writer.close();
      }
      for (let i = 0; i < 2000; i++) {
        await writer.write(new Uint8Array(65536)).catch((e) => flooded(String(e)));
      }
      flooded("every write taken");
    };
    (async () => {
      for await (const incoming of listener) {
        const conn = await incoming.accept();
        (async () => {
          for await (const stream of conn.incomingBidirectionalStreams) answer(stream).catch(() => {});
        })().catch(() => {});
      }
    })().catch(() => {});
    const caCerts = [await Deno.readTextFile(tls.ca)];
    const connect = () =>
      Deno.connectQuic({
        hostname: "127.0.0.1",
        port: endpoint.addr.port,
        serverName: "localhost",
        caCerts,
        alpnProtocols: ["h3"],
      });
    const conns = await Promise.all([connect(), connect()]);
    // A stream that never ends (a send side not finished) fails the test here instead of hanging it.
    const deadline = setTimeout(() => conns.forEach((conn) => conn.close()), 20_000);
    try {
      await fn(conns, floodEnd);
    } finally {
      clearTimeout(deadline);
      for (const conn of conns) conn.close();
      endpoint.close();
    }
  });
}

Deno.test("h3 streams as bare rids: the request to its FIN, the answer back, no resource left", async () => {
  await withQuic(async (conns) => {
    const before = Object.keys(resources()).length;
    const openers = await Promise.all(conns.map((conn) => streamOpener(conn)));
    const used: number[] = [];
    const buffer = new Uint8Array(1024);
    for (let i = 0; i < 40; i++) {
      const [tx, rx] = await openers[i % 2]();
      used.push(tx, rx);
      // Closed while its write is pending (as the slots do): the op holds the resource until it is written.
      const request = `request ${i}`.repeat(i === 39 ? 20_000 : 1);
      core.writeAll(tx, text.encode(request));
      core.tryClose(tx);
      let got = "";
      for (let n; (n = await core.read(rx, buffer)) > 0;) {
        got += new TextDecoder().decode(buffer.subarray(0, n));
      }
      core.tryClose(rx);
      assertEquals(got, `answer:${request}`);
    }
    const left = resources();
    assertEquals(used.filter((rid) => rid in left), []);
    assertEquals(Object.keys(left).length, before);
  });
});

Deno.test("h3 streams as bare rids: a receive side closed early stops the server's sending", async () => {
  await withQuic(async (conns, flooded) => {
    const [tx, rx] = await (await streamOpener(conns[0]))();
    await core.writeAll(tx, text.encode("flood"));
    core.tryClose(tx);
    await core.read(rx, new Uint8Array(1024));
    core.tryClose(rx);
    const why = await flooded;
    ok(/sending stopped by peer/.test(why), why);
  });
});
