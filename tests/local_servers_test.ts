/**
 * End to end: `loadlab site` and the live dashboard answer only requests that name this machine in
 * their Host header (no DNS rebinding), and a malformed %-escape in a path is a short 400, no stack
 * trace. Requests go over a raw socket so the Host header is exactly what a rebinding page would send.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { startLoadlab } from "./background.ts";
import { withTempDir } from "./helpers.ts";
import { writeResultsFile } from "../results/io.ts";
import { makeSingleAttack } from "./fixtures/make_results.ts";

/** GET `path` from `url`'s server with this Host header; the status and the body. */
async function rawGet(url: string, path: string, host: string): Promise<{ status: number; body: string }> {
  const { hostname, port } = new URL(url);
  const conn = await Deno.connect({ hostname, port: Number(port) });
  try {
    await conn.write(
      new TextEncoder().encode(`GET ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`),
    );
    const text = new TextDecoder().decode(await new Response(conn.readable).arrayBuffer());
    const status = Number(text.slice(9, 12));
    return { status, body: text.slice(text.indexOf("\r\n\r\n") + 4) };
  } catch (err) {
    conn.close();
    throw err;
  }
}

Deno.test("site: a foreign Host is 421, loopback names with or without a port are served, /%ZZ is 400", async () => {
  await withTempDir(async (dir) => {
    await Deno.mkdir(`${dir}/demo`);
    await writeResultsFile(`${dir}/demo/results.json`, makeSingleAttack());
    const bg = await startLoadlab(["site", dir, "--port", "0"], /at (http:\/\/\S+) /);
    try {
      const port = new URL(bg.url).port;
      for (const host of ["evil.example", `evil.example:${port}`, "127.0.0.1.nip.io", ""]) {
        const r = await rawGet(bg.url, "/", host);
        assertEquals(r.status, 421, `Host: ${host}`);
        ok(r.body.length < 200 && /localhost/.test(r.body), r.body);
      }
      for (const host of ["localhost", `localhost:${port}`, `127.0.0.1:${port}`, "[::1]", `[::1]:${port}`]) {
        assertEquals((await rawGet(bg.url, "/", host)).status, 200, `Host: ${host}`);
      }
      for (const path of ["/%ZZ", "/e/%E0%A4%A.html", "/%"]) {
        const r = await rawGet(bg.url, path, "127.0.0.1");
        assertEquals(r.status, 400, path);
        ok(!/at |Error/.test(r.body), r.body);
      }
    } finally {
      bg.child.kill("SIGTERM");
    }
    const end = await bg.done;
    ok(!/URIError|\n\s+at /.test(end.stderr), `no stack trace: ${end.stderr}`);
  });
});

Deno.test("dashboard: a foreign Host is 421 while loopback names are served", async () => {
  const target = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    const url = `http://127.0.0.1:${target.addr.port}/`;
    const bg = await startLoadlab(
      ["attack", url, "-R", "20", "-d", "3s", "-q", "--dashboard"],
      /dashboard: (http:\/\/\S+)/,
    );
    try {
      assertEquals((await rawGet(bg.url, "/", "attacker.example")).status, 421);
      assertEquals((await rawGet(bg.url, "/stats", "attacker.example")).status, 421);
      assertEquals((await rawGet(bg.url, "/stats", "localhost")).status, 200);
      assertEquals((await rawGet(bg.url, "/", `127.0.0.1:${new URL(bg.url).port}`)).status, 200);
    } finally {
      const end = await bg.done;
      assertEquals(end.code, 0, end.stderr);
    }
  } finally {
    await target.shutdown();
  }
});
