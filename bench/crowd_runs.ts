/**
 * @module
 * The runs of the crowd bench (bench/crowd.ts) at one crowd: for each load asked for, its peer (when
 * found) and loadlab, as argument vectors and how each one's rate is read. HTTP/1.1 `GET /` on nginx beside
 * wrk; h2c (HTTP/2 with prior knowledge, one stream per connection) on nginx's `listen ... http2` beside
 * h2load; HTTPS (HTTP/1.1 over TLS 1.3 on the epoll transport, OpenSSL, no verification) on nginx beside
 * wrk; WebSocket hold (`--ws-ping 1s`) and echo on the C echo server beside gcannon `--ws` (echo); and a
 * session script of one `s.get("/")`. A crowd past what one source address opens quickly is spread:
 * loadlab's over source addresses, a peer that binds none (wrk, h2load) as one process per destination
 * address nginx also listens on; gcannon, whose echo server listens on 127.0.0.1 only, is held to what
 * one address opens.
 */
import { findProgram } from "../system/path_lookup.ts";
import { readLocalPorts } from "../system/ports.ts";
import { quickPortsOf } from "../runner/socket_budget.ts";
import { findGcannon } from "./ws.ts";
import { loadlabV8Flags } from "./tool_run.ts";
import { sourcesFor, split } from "./crowd_measure.ts";
import { startNginx } from "./nginx.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";

export const LOADS = ["http1", "h2c", "https", "ws-hold", "ws-echo", "script"] as const;
export type Load = typeof LOADS[number];

export interface Run {
  load: Load;
  tool: string;
  /** Its connections when not the crowd's (a peer held to what one source address opens quickly). */
  crowd?: number;
  /** The processes of the run, started together (one, or one per destination address). */
  argvs: string[][];
  /** Requests (messages) per second from one process's stdout (or the results it wrote); summed. */
  rps(stdout: string): number | Promise<number>;
}

export type Skipped = { load: Load; tool: string; skipped: string };

/** Where each load's target listens (nginx's three servers, the echo server) and the script's file. */
export interface CrowdUrls {
  http: string;
  h2c: string;
  https: string;
  ws: string;
  scriptFile: string;
}

/** The runs of one crowd: each load's peer (when found) and loadlab. */
export async function runsFor(
  crowd: number,
  opts: { durationSec: number; loads: Load[] },
  urls: CrowdUrls,
  pin: string[],
): Promise<Array<Run | Skipped>> {
  const d = `${opts.durationSec}s`;
  const localPorts = readLocalPorts();
  const sources = sourcesFor(crowd, localPorts);
  const addresses = Array.from({ length: sources }, (_, i) => `127.0.0.${i + 1}`);
  const spread = sources > 1 ? ["--source-addresses", `127.0.0.1-127.0.0.${sources}`] : [];
  const loadlab = [...pin, Deno.execPath(), "run", "-A", ...await loadlabV8Flags(), mainTs()];
  const attack = [...loadlab, "attack", "-c", `${crowd}`, "-d", d, "--workers", "1", "--json", "--no-live"]
    .concat(spread);
  const oneAddress = sources > 1 && localPorts !== null ? quickPortsOf(localPorts) : crowd;
  const json = (s: string) => Number(JSON.parse(s).rps);
  const wrk = findProgram("wrk");
  const h2load = findProgram("h2load");
  const gcannon = findGcannon();
  const runs: Array<Run | Skipped> = [];
  const add = (load: Load, run: Omit<Run, "load"> | { tool: string; skipped: string }) => {
    if (opts.loads.includes(load)) runs.push({ load, ...run });
  };
  /** A peer binding no source address: one process per destination address, its share of the crowd. */
  const perDestination = (url: string, argv: (c: number, url: string) => string[]) =>
    split(crowd, sources).map((
      c,
      i,
    ) => [...pin, ...argv(c, url.replace(/127\.0\.0\.1|localhost/, addresses[i]))]);
  const wrkRps = (s: string) => Number(/Requests\/sec:\s+([\d.]+)/.exec(s)?.[1]);
  const noWrk = { tool: "wrk", skipped: "wrk not on PATH (apt-get install wrk)" };
  const wrkArgv = (c: number, url: string) => [wrk!, "-t1", `-c${c}`, `-d${d}`, url];
  add(
    "http1",
    wrk === null ? noWrk : { tool: "wrk", argvs: perDestination(urls.http, wrkArgv), rps: wrkRps },
  );
  add("http1", { tool: "loadlab", argvs: [[...attack, urls.http]], rps: json });
  add(
    "h2c",
    h2load === null ? { tool: "h2load", skipped: "h2load not on PATH (apt-get install nghttp2-client)" } : {
      tool: "h2load",
      argvs: perDestination(urls.h2c, (c, url) => [h2load, "-c", `${c}`, "-D", `${opts.durationSec}`, url]),
      // "finished in 3.00s, 12345.67 req/s, 1.23MB/s"
      rps: (s) => Number(/finished in [\d.]+m?s, ([\d.]+) req\/s/.exec(s)?.[1]),
    },
  );
  add("h2c", { tool: "loadlab", argvs: [[...attack, "--protocol", "h2c", urls.h2c]], rps: json });
  add(
    "https",
    wrk === null ? noWrk : { tool: "wrk", argvs: perDestination(urls.https, wrkArgv), rps: wrkRps },
  );
  add("https", {
    tool: "loadlab",
    argvs: [[...attack, "--transport", "epoll", "-k", urls.https]],
    rps: json,
  });
  add("ws-hold", { tool: "loadlab", argvs: [[...attack, "--ws-ping", "1s", urls.ws]], rps: json });
  add(
    "ws-echo",
    gcannon.path === null ? { tool: "gcannon --ws", skipped: gcannon.why } : {
      tool: "gcannon --ws",
      crowd: oneAddress,
      argvs: [[
        ...pin,
        gcannon.path,
        urls.ws.replace("ws:", "http:"),
        "--ws",
        "--ws-msg",
        "hello",
        "-c",
        `${oneAddress}`,
      ].concat(["-t", "1", "-d", d, "--json"])],
      rps: (s) => Number(JSON.parse(s.slice(s.indexOf("{"))).rps),
    },
  );
  add("ws-echo", { tool: "loadlab", argvs: [[...attack, "--ws-message", "hello", urls.ws]], rps: json });
  if (opts.loads.includes("script")) {
    // A session script runs from an experiment file (`loadlab run`), its figures in results.json.
    const dir = urls.scriptFile.replace(/\/[^/]*$/, "");
    await Deno.writeTextFile(
      `${dir}/crowd_${crowd}.yaml`,
      `name: crowd-script\ntargets:\n  nginx: { url: "${urls.http}" }\nscript: ./one_get.js\nloads:\n` +
        `  closed: { model: connections, connections: ${crowd}, duration: ${d}, workers: 1` +
        (sources > 1 ? `, sourceAddresses: 127.0.0.1-127.0.0.${sources} }\n` : " }\n"),
    );
    const outDir = `${dir}/out_${crowd}`;
    runs.push({
      load: "script",
      tool: "loadlab",
      argvs: [[...loadlab, "run", `${dir}/crowd_${crowd}.yaml`, "--out-dir", outDir]],
      rps: async () => Number(JSON.parse(await Deno.readTextFile(`${outDir}/results.json`)).runs[0].rps),
    });
  }
  return runs;
}

/**
 * nginx for the loads asked for, sized for the crowd `top`: `return 200` over HTTP/1.1 (always: the
 * script's too), h2c with prior knowledge and HTTPS (TLS 1.3 with a throwaway certificate in `dir`, no
 * session resumption), each its own server; every one also listens on the destination addresses a peer
 * binding no source address spreads over. nginx closes idle keep-alive connections once more than 15/16
 * of worker_connections are taken, which at a crowd sized to the limit turns a closed loop into
 * reconnects: twice the crowd per worker, and a second worker (same core) when that passes the open-file
 * limit.
 */
export async function startCrowdNginx(
  nginxPath: string,
  pinTarget: string[],
  loads: Load[],
  top: number,
  limit: number,
  dir: string,
): Promise<{ urls: Omit<CrowdUrls, "ws" | "scriptFile">; stop(): Promise<void> }> {
  const destinations = sourcesFor(top, readLocalPorts());
  const alsoListen = Array.from({ length: destinations - 1 }, (_, i) => `127.0.0.${i + 2}`);
  const perWorker = Math.min(2 * top + 64, limit - 64);
  const workers = perWorker * 15 / 16 < top + 64 ? 2 : 1;
  const start = (tls: { directives: string } | undefined, h2: boolean) =>
    startNginx(nginxPath, pinTarget, tls, h2, perWorker, workers, alsoListen);
  const started = [await start(undefined, false)];
  const urls = { http: started[0].url, h2c: "", https: "" };
  try {
    if (loads.includes("h2c")) {
      started.push(await start(undefined, true));
      urls.h2c = started.at(-1)!.url;
    }
    if (loads.includes("https")) {
      const pair = await selfSignedPair();
      await Deno.writeTextFile(`${dir}/cert.pem`, pair.certPem + pair.caPem);
      await Deno.writeTextFile(`${dir}/key.pem`, pair.keyPem, { mode: 0o600 });
      started.push(
        await start({
          directives: `ssl_certificate ${dir}/cert.pem; ssl_certificate_key ${dir}/key.pem; ` +
            "ssl_protocols TLSv1.3; ssl_session_tickets off; ssl_session_cache off;",
        }, false),
      );
      urls.https = started.at(-1)!.url;
    }
  } catch (err) {
    for (const n of started) await n.stop();
    throw err;
  }
  return { urls, stop: async () => void await Promise.all(started.map((n) => n.stop())) };
}

function mainTs(): string {
  return new URL("../main.ts", import.meta.url).pathname;
}
