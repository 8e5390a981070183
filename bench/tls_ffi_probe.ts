/**
 * @module
 * A measured prototype for TLS on the fast path: one keep-alive TLS 1.3 connection to nginx, `N`
 * sequential requests, driven (a) through libssl 3 by FFI on a blocking libc socket (SSL_write /
 * SSL_read, one SSL_CTX, verification on with the CA file) and (b) through `Deno.startTls`, the `deno`
 * transport's client. It prints each path's CPU per request (this process's user + system time from
 * /proc/self/stat) and wall-clock rate, interleaved over rounds. Not part of the engine: it answers
 * whether driving OpenSSL ourselves would cost less CPU per request than Deno's TLS stream, before
 * building it into the non-blocking epoll transport.
 *
 *   deno run -A bench/tls_ffi_probe.ts [requests per round, default 20000] [rounds, default 3]
 */
import { selfSignedPair } from "../targets/tls_cert.ts";
import { startNginx } from "./nginx.ts";
import { readProcStat } from "../system/proc_stat.ts";

const N = Number(Deno.args[0] ?? 20_000);
const ROUNDS = Number(Deno.args[1] ?? 3);
const enc = new TextEncoder();

const ssl = Deno.dlopen("libssl.so.3", {
  TLS_client_method: { parameters: [], result: "pointer" },
  SSL_CTX_new: { parameters: ["pointer"], result: "pointer" },
  SSL_CTX_free: { parameters: ["pointer"], result: "void" },
  SSL_CTX_set_verify: { parameters: ["pointer", "i32", "pointer"], result: "void" },
  SSL_CTX_load_verify_locations: { parameters: ["pointer", "buffer", "pointer"], result: "i32" },
  SSL_new: { parameters: ["pointer"], result: "pointer" },
  SSL_free: { parameters: ["pointer"], result: "void" },
  SSL_set_fd: { parameters: ["pointer", "i32"], result: "i32" },
  SSL_ctrl: { parameters: ["pointer", "i32", "i64", "buffer"], result: "i64" },
  SSL_set1_host: { parameters: ["pointer", "buffer"], result: "i32" },
  SSL_connect: { parameters: ["pointer"], result: "i32" },
  SSL_write: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_read: { parameters: ["pointer", "buffer", "i32"], result: "i32" },
  SSL_shutdown: { parameters: ["pointer"], result: "i32" },
}).symbols;
const libc = Deno.dlopen("libc.so.6", {
  socket: { parameters: ["i32", "i32", "i32"], result: "i32" },
  connect: { parameters: ["i32", "buffer", "u32"], result: "i32" },
  close: { parameters: ["i32"], result: "i32" },
}).symbols;

const cstr = (s: string) => enc.encode(s + "\0");

function cpuSec(): number {
  const stat = readProcStat("self");
  return stat === null ? NaN : stat.userSec + stat.systemSec;
}

/** Reads one small nginx answer ("ok" body): until the body's 2 bytes after the head arrived. */
function complete(buf: Uint8Array, n: number): boolean {
  return n >= 4 && buf[n - 2] === 0x6f && buf[n - 1] === 0x6b;
}

function viaFfi(port: number, caFile: string, request: Uint8Array): number {
  const ctx = ssl.SSL_CTX_new(ssl.TLS_client_method());
  ssl.SSL_CTX_set_verify(ctx, 1, null);
  if (ssl.SSL_CTX_load_verify_locations(ctx, cstr(caFile), null) !== 1) throw new Error("CA not loaded");
  const fd = libc.socket(2, 1, 0);
  const addr = new Uint8Array(16);
  new DataView(addr.buffer).setUint16(0, 2, true);
  new DataView(addr.buffer).setUint16(2, port, false);
  addr.set([127, 0, 0, 1], 4);
  if (libc.connect(fd, addr, 16) !== 0) throw new Error("connect failed");
  const s = ssl.SSL_new(ctx);
  ssl.SSL_set_fd(s, fd);
  ssl.SSL_ctrl(s, 55, 0n, cstr("localhost")); // SSL_set_tlsext_host_name
  ssl.SSL_set1_host(s, cstr("localhost"));
  if (ssl.SSL_connect(s) !== 1) throw new Error("handshake failed");
  const buf = new Uint8Array(4096);
  const before = cpuSec();
  for (let i = 0; i < N; i++) {
    ssl.SSL_write(s, request, request.length);
    let n = 0;
    do {
      const got = ssl.SSL_read(s, buf.subarray(n), buf.length - n);
      if (got <= 0) throw new Error(`SSL_read ${got}`);
      n += got;
    } while (!complete(buf, n));
  }
  const used = cpuSec() - before;
  ssl.SSL_shutdown(s);
  ssl.SSL_free(s);
  libc.close(fd);
  ssl.SSL_CTX_free(ctx);
  return used;
}

async function viaDeno(port: number, caFile: string, request: Uint8Array): Promise<number> {
  const tcp = await Deno.connect({ hostname: "127.0.0.1", port });
  tcp.setNoDelay(true);
  const tls = await Deno.startTls(tcp, { hostname: "localhost", caCerts: [await Deno.readTextFile(caFile)] });
  await tls.handshake();
  const buf = new Uint8Array(4096);
  const before = cpuSec();
  for (let i = 0; i < N; i++) {
    await tls.write(request);
    let n = 0;
    do {
      const got = await tls.read(buf.subarray(n));
      if (got === null) throw new Error("closed");
      n += got;
    } while (!complete(buf, n));
  }
  const used = cpuSec() - before;
  tls.close();
  return used;
}

const dir = await Deno.makeTempDir({ prefix: "loadlab-tls-probe-" });
const pair = await selfSignedPair();
await Deno.writeTextFile(`${dir}/ca.pem`, pair.caPem);
await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem);
const nginx = await startNginx("nginx", ["taskset", "-c", "0"], {
  directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ssl_protocols TLSv1.3;`,
});
try {
  const port = Number(new URL(nginx.url).port);
  const request = enc.encode(`GET / HTTP/1.1\r\nHost: localhost:${port}\r\n\r\n`);
  console.log(`load average ${Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ")}`);
  for (let round = 1; round <= ROUNDS; round++) {
    for (
      const [name, run] of [["libssl FFI", () => viaFfi(port, `${dir}/ca.pem`, request)], [
        "Deno.startTls",
        () => viaDeno(port, `${dir}/ca.pem`, request),
      ]] as const
    ) {
      const t0 = performance.now();
      const cpu = await run();
      const wallSec = (performance.now() - t0) / 1000;
      console.log(
        `round ${round} ${name.padEnd(13)} ${(cpu * 1e6 / N).toFixed(1)} us CPU/request, ` +
          `${Math.round(N / wallSec)} req/s (one connection, sequential)`,
      );
    }
  }
  console.log(`load average ${Deno.readTextFileSync("/proc/loadavg").split(" ").slice(0, 3).join(" ")}`);
} finally {
  await nginx.stop();
  await Deno.remove(dir, { recursive: true });
}
