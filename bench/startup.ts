/**
 * @module
 * `deno task bench --startup`: how long each tool takes from its command to its first request, and from its
 * last response to its exit, measured at a local server that notes each arrival (this process, on loopback).
 * Rows: `loadlab attack URL -n 1`, a one-request k6 script, a one-request TypeScript session, a one-request
 * experiment file and a locustfile (timed: `-t 1s`, so its exit column is its second) run by `loadlab run`,
 * and beside them k6 running the same script and `oha -n 1` when installed (`/tmp/peers`,
 * `PEERS`; a missing one is skipped with its reason). Each row runs once cold (a script of new content, so
 * no check or conversion is cached; the OS's file cache stays warm) and then `--rounds` times warm, the rows
 * interleaved; the table gives the cold run apart and the warm median, with the load average before and
 * after, since on a busy machine every figure grows.
 *
 *   deno task bench --startup [--rounds 5]
 */
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { isExecutable } from "../system/path_lookup.ts";
import { loadAvg } from "./h2.ts";
import { loadlabV8Flags } from "./tool_run.ts";

const FLAGS = [
  { long: "startup", takesValue: false },
  { long: "rounds", takesValue: true, example: "5" },
];
const PEERS = Deno.env.get("PEERS") ?? "/tmp/peers";
const ROOT = new URL("..", import.meta.url).pathname;

/** One tool's way to send one request to `url`, from a folder it may write its script in. */
interface Row {
  name: string;
  /** Why the row cannot run here, or null. */
  missing: string | null;
  argv(url: string, dir: string, cold: boolean): Promise<string[]>;
}

interface Timing {
  firstMs: number;
  exitAfterLastMs: number;
}

const K6_SCRIPT = (url: string, salt: string) =>
  `import http from "k6/http";\n// ${salt}\nexport const options = { vus: 1, iterations: 1 };\n` +
  `export default function () { http.get("${url}"); }\n`;
const SESSION_SCRIPT = (url: string, salt: string) =>
  `// ${salt}\nexport const options = { targets: { app: { url: "${url}" } } };\n` +
  `export default async (s: { get(path: string): Promise<unknown> }) => { await s.get("/"); };\n`;

const EXPERIMENT = (url: string, salt: string) =>
  `# ${salt}\nname: one\ntargets:\n  app: { url: "${url}" }\nloads:\n  once: { model: count, requests: 1, connections: 1 }\n`;
const LOCUSTFILE = (_url: string, salt: string) =>
  `# ${salt}\nfrom locust import HttpUser, task\n\nclass One(HttpUser):\n    @task\n    def one(self):\n` +
  `        self.client.get("/")\n`;

/** Writes `text` to `dir/name` and returns its path; a cold run's text is new, so nothing of it is cached. */
async function scriptFile(dir: string, name: string, text: (salt: string) => string, cold: boolean) {
  const path = `${dir}/${name}`;
  await Deno.writeTextFile(path, text(cold ? crypto.randomUUID() : "warm"));
  return path;
}

async function rows(): Promise<Row[]> {
  const loadlab = [Deno.execPath(), "run", "-A", ...await loadlabV8Flags(), `${ROOT}main.ts`];
  const k6 = `${PEERS}/go/k6`;
  const oha = `${PEERS}/oha/bin/oha`;
  return [
    {
      name: "loadlab attack -n 1",
      missing: null,
      argv: (url) => Promise.resolve([...loadlab, "attack", url, "-n", "1", "-q", "--no-live"]),
    },
    {
      name: "loadlab run k6 script",
      missing: null,
      argv: async (url, dir, cold) => [
        ...loadlab,
        "run",
        await scriptFile(dir, "one.js", (salt) => K6_SCRIPT(url, salt), cold),
        "--out-dir",
        `${dir}/out-k6`,
      ],
    },
    {
      name: "loadlab run session.ts",
      missing: null,
      argv: async (url, dir, cold) => [
        ...loadlab,
        "run",
        await scriptFile(dir, "one.ts", (salt) => SESSION_SCRIPT(url, salt), cold),
        "--iterations",
        "1",
        "-c",
        "1",
        "--out-dir",
        `${dir}/out-ts`,
      ],
    },
    {
      name: "loadlab run experiment",
      missing: null,
      argv: async (url, dir, cold) => [
        ...loadlab,
        "run",
        await scriptFile(dir, "one.yaml", (salt) => EXPERIMENT(url, salt), cold),
        "--out-dir",
        `${dir}/out-yaml`,
      ],
    },
    {
      name: "loadlab run locustfile",
      missing: null,
      argv: async (url, dir, cold) => [
        ...loadlab,
        "run",
        await scriptFile(dir, "one.py", (salt) => LOCUSTFILE(url, salt), cold),
        ...[
          "-u",
          "1",
          "-r",
          "1",
          "-t",
          "1s",
          "--headless",
          "-H",
          url.slice(0, -1),
          "--out-dir",
          `${dir}/out-py`,
        ],
      ],
    },
    {
      name: "k6 run (same script)",
      missing: await isExecutable(k6) ? null : `${k6} missing (../shared/tools/install-peers.sh builds it)`,
      argv: async (url, dir, cold) => [
        k6,
        "run",
        "-q",
        "--no-summary",
        await scriptFile(dir, "k6.js", (salt) => K6_SCRIPT(url, salt), cold),
      ],
    },
    {
      name: "oha -n 1",
      missing: await isExecutable(oha) ? null : `${oha} missing (../shared/tools/install-peers.sh builds it)`,
      argv: (url) => Promise.resolve([oha, "-n", "1", "-c", "1", "--no-tui", url]),
    },
  ];
}

/** The arrival-noting server: every request's arrival instant (ms since the epoch). */
function arrivalServer() {
  const arrivals: number[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
    arrivals.push(performance.timeOrigin + performance.now());
    return new Response("ok");
  });
  return { arrivals, server, url: `http://127.0.0.1:${server.addr.port}/` };
}

/** Runs `argv` once; the first arrival and the exit, each from the command's start. */
async function timeOnce(argv: string[], arrivals: number[]): Promise<Timing | string> {
  arrivals.length = 0;
  const startMs = performance.timeOrigin + performance.now();
  const out = await new Deno.Command(argv[0], { args: argv.slice(1), stdout: "null", stderr: "piped" })
    .output();
  const exitMs = performance.timeOrigin + performance.now();
  if (arrivals.length === 0) {
    return `exit ${out.code}, no request arrived: ${new TextDecoder().decode(out.stderr).slice(-300)}`;
  }
  return { firstMs: arrivals[0] - startMs, exitAfterLastMs: exitMs - arrivals.at(-1)! };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export async function main(argv: string[]): Promise<number> {
  const values = new FlagValues(tokenize(argv, FLAGS), FLAGS);
  const rounds = values.positiveInt("rounds") ?? 5;
  const { arrivals, server, url } = arrivalServer();
  const dir = await Deno.makeTempDir({ prefix: "loadlab-startup-" });
  const loadBefore = loadAvg();
  const table = new Map<string, { cold?: Timing; warm: Timing[]; failed?: string }>();
  try {
    const all = await rows();
    for (const row of all.filter((r) => r.missing !== null)) {
      console.log(`${row.name}: skipped, ${row.missing}`);
    }
    const runnable = all.filter((r) => r.missing === null);
    for (let round = 0; round <= rounds; round++) {
      for (const row of round % 2 ? runnable : [...runnable].reverse()) {
        const entry = table.get(row.name) ?? { warm: [] };
        table.set(row.name, entry);
        if (entry.failed) continue;
        const timing = await timeOnce(await row.argv(url, dir, round === 0), arrivals);
        if (typeof timing === "string") entry.failed = timing;
        else if (round === 0) entry.cold = timing;
        else entry.warm.push(timing);
      }
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true }).catch(() => {});
  }
  console.log(`load average before ${loadBefore}, after ${loadAvg()}; ${rounds} warm rounds, interleaved`);
  console.log("tool                      cold first  warm first (median)  warm exit after last (median)");
  for (const [name, entry] of table) {
    if (entry.failed) {
      console.log(`${name.padEnd(26)}failed: ${entry.failed}`);
      continue;
    }
    const ms = (v: number) => `${v.toFixed(0)} ms`;
    console.log(
      name.padEnd(26) + ms(entry.cold!.firstMs).padStart(10) +
        ms(median(entry.warm.map((t) => t.firstMs))).padStart(21) +
        ms(median(entry.warm.map((t) => t.exitAfterLastMs))).padStart(31),
    );
  }
  return 0;
}
