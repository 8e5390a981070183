/**
 * @module
 * The load generators compared by `deno task bench`: how to find each one, the command line for "50
 * connections for D seconds against URL", and how to read its requests per second from its output.
 * Peers come from Debian (wrk, hey) or from `../shared/tools/install-peers.sh` (a path from the
 * repository root) under /tmp/peers (autocannon, oha, k6; `PEERS` overrides the folder). A missing tool
 * is a skip with a reason.
 */
import { findProgram, isExecutable } from "../system/path_lookup.ts";

export interface ToolRun {
  argv: string[];
  /** Requests per second from the tool's stdout (and files it wrote). */
  parseRps(stdout: string): Promise<number>;
  cleanup?(): Promise<void>;
}

/** How the bench's https rows differ: the CA to verify nginx with, and a new connection per request. */
export interface BenchVariant {
  /** https: nginx's throwaway CA (tools that verify use it; wrk does not verify). */
  caFile?: string;
  /** Send `Connection: close`: every request opens (and for https, handshakes) a connection. */
  close?: boolean;
}

export interface BenchTool {
  /** For `--tools` (`loadlab` names every loadlab row). */
  name: string;
  /** The table's row name, when not `name`. */
  label?: string;
  /** The command to run, or why the tool is skipped. */
  plan(
    url: string,
    connections: number,
    durationSec: number,
    variant?: BenchVariant,
  ): Promise<ToolRun | string>;
}

/** Tools not set up for the https / Connection: close rows say so instead of running differently. */
function plainOnly(url: string, variant: BenchVariant | undefined): string | null {
  return url.startsWith("https:") || variant?.close ? "not part of the https / Connection: close rows" : null;
}

const PEERS = Deno.env.get("PEERS") ?? "/tmp/peers";
/** `../shared/` from the repository root, wherever the checkout is (not a fixed machine path). */
const INSTALL_SCRIPT = new URL("../../shared/tools/install-peers.sh", import.meta.url).pathname;
const INSTALL_HINT = `run bash ${INSTALL_SCRIPT}`;

/** wrk and hey print `Requests/sec: 12345.67`. */
export function parseRequestsPerSecLine(stdout: string): number {
  const match = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  return match ? Number(match[1]) : NaN;
}

/** `loadlab attack --json`: `{ "rps": ... }`. */
export function parseLoadlabJson(stdout: string): number {
  return Number(JSON.parse(stdout).rps);
}

/** autocannon `-j`: total requests over the measured duration (seconds), as wrk computes it. */
export function parseAutocannonJson(stdout: string): number {
  const result = JSON.parse(stdout);
  const total = result?.requests?.total;
  const durationSec = result?.duration;
  return typeof total === "number" && typeof durationSec === "number" && durationSec > 0
    ? total / durationSec
    : Number(result?.requests?.average);
}

/** oha JSON: `summary.requestsPerSec`. */
export function parseOhaJson(stdout: string): number {
  return Number(JSON.parse(stdout)?.summary?.requestsPerSec);
}

/** k6 `--summary-export`: `metrics.http_reqs.rate`. */
export function parseK6Summary(json: string): number {
  return Number(JSON.parse(json)?.metrics?.http_reqs?.rate);
}

const sync = (parse: (s: string) => number) => (stdout: string) => Promise.resolve(parse(stdout));

/**
 * loadlab with one worker over one transport (`--transport`): one row per transport. `insecure`: the
 * https rows' `-k` row, which skips certificate verification as wrk does (the others verify nginx).
 */
function loadlabWith(transport: "epoll" | "deno", insecure = false): BenchTool {
  return {
    name: `loadlab-${transport}${insecure ? "-k" : ""}`,
    label: `loadlab (${transport}${insecure ? ", -k" : ""})`,
    plan(url, connections, durationSec, variant) {
      const mainTs = new URL("../main.ts", import.meta.url).pathname;
      if (!isFile(mainTs)) return Promise.resolve("main.ts not found (the engine is not in this tree yet)");
      if (insecure && !url.startsWith("https:")) return Promise.resolve("an https row only");
      const extra = [
        ...(insecure ? ["--insecure"] : variant?.caFile ? ["--cacert", variant.caFile] : []),
        ...(variant?.close ? ["-H", "Connection: close"] : []),
      ];
      return Promise.resolve({
        argv: [
          Deno.execPath(),
          "run",
          "-A",
          mainTs,
          "attack",
          "-c",
          `${connections}`,
          "-d",
          `${durationSec}s`,
        ]
          .concat(["--workers", "1", "--transport", transport, ...extra, "--json", "--no-live", url]),
        parseRps: sync(parseLoadlabJson),
      });
    },
  };
}

const wrk: BenchTool = {
  name: "wrk",
  plan(url, connections, durationSec, variant) {
    const path = findProgram("wrk");
    if (!path) return Promise.resolve("wrk not on PATH; apt-get install wrk");
    const close = variant?.close ? ["-H", "Connection: close"] : [];
    return Promise.resolve({
      argv: [path, "-t1", `-c${connections}`, `-d${durationSec}s`, ...close, url],
      parseRps: sync(parseRequestsPerSecLine),
    });
  },
};

const autocannon: BenchTool = {
  name: "autocannon",
  plan(url, connections, durationSec, variant) {
    const skip = plainOnly(url, variant);
    if (skip) return Promise.resolve(skip);
    const path = `${PEERS}/node/node_modules/.bin/autocannon`;
    if (!isExecutable(path)) return Promise.resolve(`${path} missing; ${INSTALL_HINT}`);
    return Promise.resolve({
      argv: [path, "-c", `${connections}`, "-d", `${durationSec}`, "-j", url],
      parseRps: sync(parseAutocannonJson),
    });
  },
};

const oha: BenchTool = {
  name: "oha",
  async plan(url, connections, durationSec, variant) {
    const path = `${PEERS}/oha/bin/oha`;
    if (!isExecutable(path)) return `${path} missing; ${INSTALL_HINT}`;
    const extra = [
      ...(variant?.caFile ? ["--cacert", variant.caFile] : []),
      ...(variant?.close ? ["--disable-keepalive"] : []),
    ];
    // Newer oha replaced `-j` with `--output-format json`; ask the binary which one it speaks.
    const help = await new Deno.Command(path, { args: ["--help"], stdout: "piped", stderr: "null" }).output();
    const json = new TextDecoder().decode(help.stdout).includes("--output-format")
      ? ["--output-format", "json"]
      : ["-j"];
    return {
      argv: [path, "-c", `${connections}`, "-z", `${durationSec}s`, "--no-tui", ...json, ...extra, url],
      parseRps: sync(parseOhaJson),
    };
  },
};

const hey: BenchTool = {
  name: "hey",
  plan(url, connections, durationSec, variant) {
    const skip = plainOnly(url, variant);
    if (skip) return Promise.resolve(skip);
    const path = findProgram("hey");
    if (!path) return Promise.resolve("hey not on PATH; apt-get install hey");
    return Promise.resolve({
      argv: [path, "-c", `${connections}`, "-z", `${durationSec}s`, url],
      parseRps: sync(parseRequestsPerSecLine),
    });
  },
};

const k6: BenchTool = {
  name: "k6",
  async plan(url, connections, durationSec, variant) {
    const skip = plainOnly(url, variant);
    if (skip) return skip;
    const path = `${PEERS}/go/k6`;
    if (!isExecutable(path)) return `${path} missing; ${INSTALL_HINT}`;
    const dir = await Deno.makeTempDir({ prefix: "loadlab-bench-k6-" });
    const script = `${dir}/script.js`;
    await Deno.writeTextFile(
      script,
      'import http from "k6/http";\nexport const options = { discardResponseBodies: true };\n' +
        "export default function () { http.get(__ENV.TARGET_URL); }\n",
    );
    const summary = `${dir}/summary.json`;
    return {
      argv: [path, "run", "--quiet", "--vus", `${connections}`, "--duration", `${durationSec}s`]
        .concat(["--summary-export", summary, "-e", `TARGET_URL=${url}`, script]),
      parseRps: async () => parseK6Summary(await Deno.readTextFile(summary)),
      cleanup: () => Deno.remove(dir, { recursive: true }),
    };
  },
};

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** In table order; wrk is the reference the ratios are computed against. */
export const BENCH_TOOLS: BenchTool[] = [
  wrk,
  loadlabWith("epoll"),
  loadlabWith("epoll", true),
  loadlabWith("deno"),
  autocannon,
  oha,
  hey,
  k6,
];
