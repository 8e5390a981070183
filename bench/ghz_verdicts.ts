/**
 * @module
 * Does a ghz test reach ghz's verdict on loadlab? Each case of a corpus is a ghz command line (a file of
 * bench/ghz_verdicts/, `#` lines its comment), run by real ghz and by `loadlab ghz` with the same words
 * against the same servers: @grpc/grpc-js's greeter (examples/grpc/server.js: unary, streams, a chosen
 * status, a sleep, metadata echoed, reflection) in cleartext at `$HOST` (its port `$PORT`) and over TLS at
 * `$TLS_HOST`; `$DEAD_HOST`, a port nothing listens on; `$HOSTILE_<MODE>`, a raw server misbehaving in that
 * mode (tests/fixtures/grpc_hostile_server.ts: `$HOSTILE_RESET_CANCEL` resets each stream with CANCEL).
 * `$PROTO` is the greeter's .proto, `$PROTOSET` its SayHello compiled, `$CA` the TLS server's CA (`$WRONG_CA`
 * the system's; `$CERT`, `$KEY` its pair, sent as a client's), `$BIG` a 5 MiB message, `$CORPUS` the corpus
 * folder and `$OUT` a file of the tool's own. A row compares the exit codes, the calls counted (the same
 * unless time ends the run: -z or -x, or a --config file's duration, then within 10%), each status's count
 * and each error's (within 10%, or 1) and the report's form (the JSON's fields, end, options and details,
 * the summary's sections, the CSV's header); a timed run whose every call failed unanswered is
 * generator-bound, its statuses and errors compared as shares of its count (each tool fails as fast as its
 * share of the machine lets it), as is a timed case with a `# generator-bound` line (its calls unpaced, each
 * tool making as many as it can); a `# count: LO..HI` line is the count both tools promise where the
 * machine's load moves it; a `# latency: FLOOR_MS` line checks the latency fields of each tool's JSON
 * against what both promise when each call is timed from its actual start: the fastest no sooner than the
 * server's FLOOR_MS, and the calls' times, at most `-c` at once, adding up to no more than `-c` times the
 * run's total; a deadline the server's or the client's is one error (whichever came first). A case loadlab
 * refuses by design says why in a `# refused:` line and reads so, apart from those that agree. Without ghz
 * (`--ghz-bin`, `$GHZ`, /tmp/peers/go/ghz, PATH) or node with examples/node_modules it prints why and
 * runs nothing.
 *
 *   deno task bench --ghz-verdicts [--ghz-bin PATH] [--corpus DIR] [--only NAME,NAME]
 */
import { join, resolve } from "node:path";
import { tokenize } from "../cli/argv.ts";
import { FlagValues } from "../cli/flag_values.ts";
import { isExecutable } from "../system/path_lookup.ts";
import { freePort } from "../system/ports.ts";
import { findGhz } from "./grpc.ts";
import { GRPC_HOSTILE_MODES, startGrpcHostileServer } from "../tests/fixtures/grpc_hostile_server.ts";
import { GREETER_PROTO, nodeGreeterSkip, withNodeGreeter } from "../tests/fixtures/node_greeter.ts";
import { selfSignedPair } from "../targets/tls_cert.ts";
import { loadProtoFile } from "../runner/http/grpc/schema.ts";
import protobuf from "protobufjs";
import "protobufjs/ext/descriptor/index.js";
import { loadAvg } from "./h2.ts";
import { printTable } from "./k6_verdicts.ts";

const CORPUS = new URL("./ghz_verdicts/", import.meta.url).pathname;
const MAIN = new URL("../main.ts", import.meta.url).pathname;
/** How long one tool may take on one case (the longest runs 3 s). */
const RUN_LIMIT_MS = 60_000;

/** What one tool's run of one case gave. */
export interface ToolRun {
  code: number;
  /** Calls in the report; null when no report was read. */
  count: number | null;
  statuses: Record<string, number>;
  errors: Record<string, number>;
  /** The report's form: its JSON's fields, or its summary's section lines, or its CSV's header. */
  form: string;
  /** The first stderr line, when there is no report. */
  note: string;
  /** The JSON's `average`, `fastest` and `total` (ns). */
  latency?: { average: number; fastest: number; total: number };
}

/** One case: its name, its words (variables filled), and whether time ends it (-z, -x). */
interface Case {
  name: string;
  dir: string;
  args: string[];
  /** Ended by time (-z, -x): the calls it cuts at its end, at most `inFlight`, are compared apart. */
  timed: boolean;
  inFlight: number;
  /** The count each tool promises (its `# count: LO..HI` line), where the machine's load moves it. */
  countRange?: [number, number];
  /** Its calls unpaced over its time (its `# generator-bound` line): each tool's count is its own speed. */
  generatorBound?: boolean;
  /** Why loadlab refuses it before the load (its `# refused:` line): apart from ghz's verdict, by design. */
  refused?: string;
  /** The server's least time per call (its `# latency: FLOOR_MS` line): the latency fields are checked. */
  latencyFloorMs?: number;
}

export async function main(argv: string[]): Promise<number> {
  const specs = [
    { long: "ghz-verdicts", takesValue: false },
    { long: "ghz-bin", takesValue: true, example: "/tmp/peers/go/ghz" },
    { long: "corpus", takesValue: true, example: "bench/ghz_verdicts" },
    { long: "only", takesValue: true, example: "timeout" },
  ];
  const flags = new FlagValues(tokenize(argv, specs, {}, "bench"), specs);
  const ghz = flags.text("ghz-bin") ?? findGhz().path;
  if (ghz === null || !isExecutable(ghz)) {
    console.log("ghz verdicts: skipped: no ghz (give --ghz-bin PATH or $GHZ, or put ghz on PATH)");
    return 0;
  }
  const noNode = nodeGreeterSkip("ghz verdicts");
  if (noNode !== null) return 0;
  console.log(`ghz verdicts: ghz ${ghz}; loadlab ${MAIN}; load average ${loadAvg()}`);
  const rows = await corpusRows(ghz, resolve(flags.text("corpus") ?? CORPUS), flags.text("only"));
  const same = rows.filter((r) => r.at(-1) === "same").length;
  const refused = rows.filter((r) => r.at(-1)!.startsWith("refused, as declared")).length;
  printTable([["case", "exit ghz/ll", "count ghz/ll", "statuses", "errors", "form", "verdict"], ...rows]);
  console.log(
    `\n${same} of ${rows.length} cases reach ghz's verdict on loadlab, ${refused} refused before the load by ` +
      `design (each row says why); load average ${loadAvg()}`,
  );
  return 0;
}

/** The rows of the cases whose names hold one of `only`'s (comma-separated), run by `ghz` and by loadlab. */
export async function corpusRows(ghz: string, corpus: string, only?: string): Promise<string[][]> {
  const work = Deno.makeTempDirSync({ prefix: "loadlab-ghz-verdicts-" });
  const tls = await selfSignedPair();
  // A message past grpc-go's 4 MiB cap, under ghz's.
  Deno.writeTextFileSync(join(work, "big.json"), JSON.stringify({ name: "x".repeat(5 * 2 ** 20) }));
  Deno.writeTextFileSync(join(work, "ca.pem"), tls.caPem);
  Deno.writeTextFileSync(join(work, "cert.pem"), tls.certPem);
  Deno.writeTextFileSync(join(work, "key.pem"), tls.keyPem);
  // Its own split greeter: a protoset of the greeter's would lack google/protobuf/empty.proto.
  const split = loadProtoFile(join(corpus, "protos/svc/greeter_split.proto"), [join(corpus, "protos/types")]);
  const set = (split as unknown as { toDescriptor(s: string): unknown }).toDescriptor("proto3");
  // deno-lint-ignore no-explicit-any
  Deno.writeFileSync(
    join(work, "greeter.protoset"),
    (protobuf as any).descriptor.FileDescriptorSet.encode(set).finish(),
  );
  const rows: string[][] = [];
  const hostile = GRPC_HOSTILE_MODES.map((mode) => [mode, startGrpcHostileServer(mode)] as const);
  await withNodeGreeter((port) =>
    withNodeGreeter(async (tlsPort) => {
      const vars: Record<string, string> = {
        HOST: `127.0.0.1:${port}`,
        PORT: String(port),
        TLS_HOST: `127.0.0.1:${tlsPort}`,
        DEAD_HOST: `127.0.0.1:${freePort()}`,
        PROTO: GREETER_PROTO,
        PROTOSET: join(work, "greeter.protoset"),
        CA: join(work, "ca.pem"),
        CERT: join(work, "cert.pem"),
        KEY: join(work, "key.pem"),
        // The system's CAs, none of which signed the throwaway one's certificate.
        WRONG_CA: "/etc/ssl/certs/ca-certificates.crt",
        BIG: join(work, "big.json"),
        CORPUS: corpus,
        ...Object.fromEntries(hostile.map(([mode, server]) => [
          `HOSTILE_${mode.toUpperCase().replaceAll("-", "_")}`,
          server.origin.replace("http://", ""),
        ])),
      };
      const picked = (name: string) => only === undefined || only.split(",").some((o) => name.includes(o));
      for (const c of corpusCases(corpus, vars).filter((c) => picked(c.name))) {
        const ghzRun = await runTool(ghz, c, work, "ghz");
        const llRun = await runTool(Deno.execPath(), c, work, "loadlab");
        const row = compareRuns(c.name, c.timed ? c.inFlight : 0, ghzRun, llRun, c);
        if (c.latencyFloorMs !== undefined) latencyCheck(row, c, [ghzRun, llRun]);
        console.error(`${c.name}: ${row.at(-1)}`);
        rows.push(row);
      }
    }, { TLS_CERT: join(work, "cert.pem"), TLS_KEY: join(work, "key.pem") })
  );
  await Promise.all(hostile.map(([, server]) => server.close()));
  await Deno.remove(work, { recursive: true }).catch(() => {});
  return rows;
}

/**
 * The corpus's cases: each file's words after its `#` lines, `$NAME`s filled from `vars`; a `# refused: WHY`
 * line says loadlab refuses it by design, and `< FILE` is its stdin.
 */
function corpusCases(folder: string, vars: Record<string, string>): Case[] {
  return [...Deno.readDirSync(folder)].filter((e) => e.isFile && e.name.endsWith(".txt")).map((e) => {
    const lines = Deno.readTextFileSync(join(folder, e.name)).split("\n");
    const refused = lines.map((l) => /^# refused: (.*)/.exec(l)?.[1]).find((r) => r !== undefined);
    const range = lines.map((l) => /^# count: (\d+)\.\.(\d+)/.exec(l)).find((m) => m !== null);
    const floor = lines.map((l) => /^# latency: (\d+)/.exec(l)?.[1]).find((f) => f !== undefined);
    const generatorBound = lines.some((l) => l.startsWith("# generator-bound"));
    const text = lines.filter((l) => !l.startsWith("#")).join(" ");
    const args = shellWords(text.replace(/\$([A-Z_][A-Z0-9_]*)/g, (m, name: string) => vars[name] ?? m));
    // A --config file's keys count as its flags: "duration": "2s", concurrency = 8, max-duration: 1s.
    const file = args[args.indexOf("--config") + 1];
    // A config file that is not there is the tools' own error (ghz's configor runs without it).
    const config = args.includes("--config") ? readOr(join(folder, file)) : "";
    const key = (k: string) => new RegExp(`^\\s*"?${k}"?\\s*[:=]\\s*"?(\\w*)`, "m").exec(config)?.[1];
    const timed = args.some((a) => /^(-z|-x|--duration|--max-duration)(=|$)/.test(a)) ||
      [key("duration"), key("max-duration")].some((d) => d !== undefined && d !== "0");
    // -c N, --concurrency N or --concurrency=N, else the config's; ghz's 50 when not given.
    const c = args.findIndex((a) => /^(-c|--concurrency)(=|$)/.test(a));
    const given = c < 0
      ? key("concurrency") ?? "50"
      : args[c].includes("=")
      ? args[c].split("=")[1]
      : args[c + 1];
    const countRange = range ? [Number(range[1]), Number(range[2])] as [number, number] : undefined;
    const name = e.name.replace(/\.txt$/, "");
    const latencyFloorMs = floor === undefined ? undefined : Number(floor);
    const inFlight = Number(given);
    return { name, dir: folder, args, timed, inFlight, countRange, refused, latencyFloorMs, generatorBound };
  }).sort((a, b) => a.name.localeCompare(b.name));
}

/** A file's text, or "" when it cannot be read. */
function readOr(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** A command line's words as a POSIX shell splits them: '...' and "..." quote, \ escapes outside ''. */
export function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote === "'") {
      if (ch === "'") quote = null;
      else word += ch;
    } else if (quote === '"') {
      if (ch === '"') quote = null;
      else if (ch === "\\" && /["\\$`]/.test(line[i + 1] ?? "")) word += line[++i];
      else word += ch;
    } else if (/\s/.test(ch)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      word ??= "";
    } else if (ch === "\\" && i + 1 < line.length) word = (word ?? "") + line[++i];
    else word = (word ?? "") + ch;
  }
  if (word !== null) words.push(word);
  return words;
}

/** One tool's run of `c`: its exit code and its report (stdout, or the `-o` file) read. */
async function runTool(program: string, c: Case, work: string, tool: "ghz" | "loadlab"): Promise<ToolRun> {
  const out = join(work, `${tool}-${c.name}.out`);
  try {
    Deno.removeSync(out);
  } catch { /* not there */ }
  const words = c.args.map((a) => a.replaceAll("$OUT", out));
  const stdin = words.indexOf("<");
  const input = stdin < 0 ? null : Deno.readFileSync(join(c.dir, words.splice(stdin, 2)[1]));
  const args = tool === "ghz" ? words : ["run", "-A", MAIN, "ghz", ...words];
  const child = new Deno.Command(program, {
    args,
    cwd: c.dir,
    env: { NO_COLOR: "1" },
    stdin: input === null ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(RUN_LIMIT_MS),
  }).spawn();
  if (input !== null) {
    const writer = child.stdin.getWriter();
    await writer.write(input);
    await writer.close();
  }
  const done = await child.output();
  const stderr = new TextDecoder().decode(done.stderr).split("\n").filter((l) => l.trim() !== "");
  let report = new TextDecoder().decode(done.stdout);
  if (words.some((w) => w.includes(out))) {
    try {
      report = Deno.readTextFileSync(out);
    } catch {
      report = "";
    }
  }
  return { ...readReport(report), code: done.code, note: stderr.at(-1) ?? "" };
}

/** A ghz report in any of its forms: its count, statuses, errors and form. */
export function readReport(text: string): Omit<ToolRun, "code" | "note"> {
  const none = { count: null, statuses: {}, errors: {}, form: "none" };
  const trimmed = text.trim();
  if (trimmed === "") return none;
  if (trimmed.startsWith("{")) {
    try {
      const r = JSON.parse(trimmed);
      const pretty = /^\{\n {2}"/.test(trimmed) ? "pretty " : "";
      // Which calls the fastest, slowest, percentiles and histogram are over: the histogram's calls.
      const timed = (r.histogram ?? []).reduce((a: number, b: { count: number }) => a + b.count, 0);
      // Every call OK: the two sets are one, read as the OK calls.
      const over = timed === 0
        ? ""
        : timed === r.statusCodeDistribution?.OK
        ? ", latency over OK calls"
        : timed === r.count
        ? ", latency over every call"
        : `, latency over ${timed} calls`;
      // A CI's jq reads these too: every call in details, and ghz's options key for key.
      const details = r.details?.length === r.count ? "every call" : `${r.details?.length} of ${r.count}`;
      const options = JSON.stringify(r.options);
      return {
        count: r.count,
        latency: { average: r.average, fastest: r.fastest, total: r.total },
        statuses: r.statusCodeDistribution ?? {},
        errors: r.errorDistribution ?? {},
        form: `${pretty}json (${r.endReason}${over}, details ${details}): ${
          Object.keys(r).sort()
        }; ${options}`,
      };
    } catch {
      return none;
    }
  }
  if (/^ghz_(run|detail),/.test(trimmed)) {
    // InfluxDB lines: `measurement,tags fields time` (`\` escapes); a ghz_run has its errors as its status.
    const statuses: Record<string, number> = {}, errors: Record<string, number> = {};
    const lines = trimmed.split("\n").map((l) => l.split(/(?<!\\) /));
    const keysOf = (part: string) => part.split(/(?<!\\),/).map((kv) => kv.split("=")[0]).join(",");
    for (const [, fields] of lines) {
      const status = /status="(\w+)"/.exec(fields)?.[1];
      const error = /error="(.*?)",status=/.exec(fields)?.[1].replace(/\\(.)/g, "$1") ?? "";
      if (status !== undefined) statuses[status] = (statuses[status] ?? 0) + 1;
      if (error !== "") errors[error] = (errors[error] ?? 0) + 1;
    }
    const run = /(?:^| |,)count=(\d+),.*errors=(\d+)$/.exec(lines[0][1] ?? "");
    if (run) statuses.errors = Number(run[2]);
    const [tags, fields] = lines[0];
    return {
      count: run ? Number(run[1]) : lines.length,
      statuses,
      errors,
      form: `influx ${keysOf(tags)} ${keysOf(fields)}`,
    };
  }
  if (trimmed.startsWith("duration (ms),status,error")) {
    const statuses: Record<string, number> = {}, errors: Record<string, number> = {};
    const rows = trimmed.split("\n").slice(1);
    for (const row of rows) {
      const [, status, ...error] = row.split(",");
      statuses[status] = (statuses[status] ?? 0) + 1;
      const e = error.join(",").replace(/^"|"$/g, "");
      if (e !== "") errors[e] = (errors[e] ?? 0) + 1;
    }
    return { count: rows.length, statuses, errors, form: "csv" };
  }
  const count = /^\s*Count:\s+(\d+)/m.exec(trimmed);
  if (count === null) return none;
  const statuses: Record<string, number> = {}, errors: Record<string, number> = {};
  let section = "";
  const sections: string[] = [];
  for (const line of trimmed.split("\n")) {
    if (/^\S.*:$/.test(line)) sections.push(section = line);
    else if (line.startsWith("  Name:")) sections.push("Name");
    const status = /^\s+\[(\w+)\]\s+(\d+) responses/.exec(line);
    if (section.startsWith("Status") && status) statuses[status[1]] = Number(status[2]);
    const error = /^\s+\[(\d+)\]\s+(.*?)\s*$/.exec(line);
    if (section.startsWith("Error") && error) errors[error[2]] = Number(error[1]);
  }
  return { count: Number(count[1]), statuses, errors, form: `summary: ${sections.join(" ")}` };
}

/** Within 10% of each other, or 1. */
const near = (a: number, b: number) => Math.abs(a - b) <= Math.max(1, 0.1 * Math.max(a, b));

/**
 * The calls a run cut at its end (ghz's "close"): their errors' texts, and the status they are under. A
 * call grpc-go opens as ghz closes its connection meets "the connection is draining".
 */
const CUT = new RegExp(
  "^rpc error: code = (Canceled|Unavailable) desc = " +
    "(grpc: the client connection is closing|transport is closing|the connection is draining)$",
);

/** `run` without the calls cut at its end, and how many those were. */
function withoutCut(run: ToolRun): [ToolRun, number] {
  const statuses = { ...run.statuses }, errors: Record<string, number> = {};
  let cut = 0;
  for (const [key, n] of Object.entries(run.errors)) {
    const status = CUT.exec(key)?.[1];
    if (status === undefined) errors[key] = n;
    else {
      cut += n;
      statuses[status] -= n;
      if (statuses[status] <= 0) delete statuses[status];
    }
  }
  // A summary's error section of cut calls only is theirs too.
  const form = Object.keys(errors).length > 0 ? run.form : run.form.replace(/ Error distribution:$/, "");
  return [{ ...run, statuses, errors, form }, cut];
}

/**
 * A row: each part compared; `same` when every part is. `cutMost` > 0 for a run ended by time: the calls it
 * cut at its end are compared apart (loadlab's at most `cutMost`, its calls in flight: ghz's ticker hands out
 * calls as it stops, each failing at once, so its own may be more), counts within 10%, or each within the
 * `countRange` both tools promise (a count the machine's load moves: its statuses and errors compared as
 * shares of it). A case loadlab `refused` by design reads so, never `same`.
 */
export function compareRuns(
  name: string,
  cutMost: number,
  ghzRun: ToolRun,
  llRun: ToolRun,
  { countRange, refused, generatorBound: unpaced }: {
    countRange?: [number, number];
    refused?: string;
    generatorBound?: boolean;
  } = {},
): string[] {
  const timed = cutMost > 0;
  const [[ghz, ghzCut], [ll, llCut]] = timed
    ? [withoutCut(ghzRun), withoutCut(llRun)]
    : [[ghzRun, 0], [llRun, 0]];
  const exit = `${ghz.code}/${ll.code}`;
  // A timed run whose calls are unpaced, or all failed unanswered (a dead port, a deadline before any
  // answer), counts what each tool can make in the time on its share of the cores: no count is promised, the
  // shares are.
  const generatorBound = timed && (unpaced === true ||
    [ghz, ll].every((r) => /^(Unavailable|DeadlineExceeded)$/.test(Object.keys(r.statuses).join())));
  const [lo, hi] = countRange ?? (generatorBound ? [1, Infinity] : [NaN, NaN]);
  const promised = [ghz.count, ll.count].every((n) => n !== null && n >= lo && n <= hi);
  const why = generatorBound
    ? " (generator-bound)"
    : countRange
    ? ` (promised ${countRange.join("..")})`
    : "";
  const count = `${ghz.count ?? "-"}/${ll.count ?? "-"}${why}`;
  const countSame = ghz.count === ll.count || promised ||
    (timed && !countRange && ghz.count !== null && ll.count !== null && near(ghz.count, ll.count));
  const cell = (key: "statuses" | "errors") =>
    promised
      ? distributionCell(perMille(ghz[key], ghz.count! - ghzCut), perMille(ll[key], ll.count! - llCut))
      : distributionCell(ghz[key], ll[key]);
  const statuses = cell("statuses");
  const cutNote = llCut <= cutMost ? "" : `; cut at the end ll ${llCut}, past its ${cutMost} in flight`;
  const errors = cell("errors") + cutNote;
  const form = ghz.form === ll.form ? "same" : `ghz ${ghz.form}; ll ${ll.form}`;
  const parts = [
    ghz.code === ll.code,
    countSame,
    statuses.startsWith("same"),
    errors.startsWith("same") && cutNote === "",
    form === "same",
  ];
  // Why a tool wrote no report, from its stderr.
  const noReport = [["ghz", ghz], ["ll", ll]].filter(([, r]) =>
    (r as ToolRun).count === null && (r as ToolRun).note
  )
    .map(([tool, r]) => `${tool}: ${(r as ToolRun).note.slice(0, 100)}`);
  const verdict = refused !== undefined
    ? ll.code === 2 && ll.count === null
      ? `refused, as declared (${refused}): ${ll.note}`
      : "differs; declared refused, ran"
    : parts.every(Boolean)
    ? "same"
    : ["differs", ...noReport].join("; ");
  return [name, exit, count, statuses, errors, form, verdict];
}

/**
 * The latency fields' check of `row` (its form cell and verdict): each tool's fastest at or past the
 * server's floor, and its calls' times (the average over those not cut at the end) adding up to no more
 * than its calls in flight times its run's total, as they do when each call is timed from its actual start.
 */
export function latencyCheck(
  row: string[],
  c: { inFlight: number; latencyFloorMs?: number },
  runs: ToolRun[],
): void {
  const broken = runs.map((run, k) => {
    const l = run.latency;
    if (l === undefined) return `${["ghz", "ll"][k]}: no latency fields`;
    const timedNs = l.average * (run.count! - withoutCut(run)[1]);
    const over = timedNs > c.inFlight * l.total
      ? `calls' times ${(timedNs / 1e9).toFixed(1)} s > ${c.inFlight} x total`
      : "";
    // The greeter's timer runs on Node's millisecond loop clock: a sleep may end up to a millisecond early.
    const early = l.fastest < (c.latencyFloorMs! - 2) * 1e6 ? `fastest ${l.fastest / 1e6} ms` : "";
    return over || early ? `${["ghz", "ll"][k]}: ${[over, early].filter(Boolean).join(", ")}` : "";
  }).filter(Boolean);
  if (broken.length === 0) return;
  row[5] = `${row[5]}; latency ${broken.join("; ")}`;
  if (row[6] === "same") row[6] = "differs";
}

/** Each count as its share of `total`, per mille. */
function perMille(counts: Record<string, number>, total: number): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).map(([k, n]) => [k, (n * 1000) / total]));
}

/**
 * A call past its deadline ends with the server's DeadlineExceeded or the client's own, whichever comes
 * first (ghz's runs hold both): one key for either.
 */
function deadlinesAsOne(errors: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [key, n] of Object.entries(errors)) {
    const k = /^rpc error: code = DeadlineExceeded desc = (Deadline exceeded|context deadline exceeded)$/
        .test(key)
      ? "rpc error: code = DeadlineExceeded (the server's or the client's)"
      : key;
    out[k] = (out[k] ?? 0) + n;
  }
  return out;
}

/** `same (N)` when each key's count is within 10% (or 1) of ghz's, else what differs. */
function distributionCell(ghzKeys: Record<string, number>, llKeys: Record<string, number>): string {
  const [ghz, ll] = [deadlinesAsOne(ghzKeys), deadlinesAsOne(llKeys)];
  const differ: string[] = [];
  for (const [key, n] of Object.entries(ghz)) {
    if (!(key in ll)) differ.push(`${key} ${n} ll absent`);
    else if (!near(n, ll[key])) differ.push(`${key} ghz ${n}, ll ${ll[key]}`);
  }
  for (const [key, n] of Object.entries(ll)) if (!(key in ghz)) differ.push(`${key} ${n} ll only`);
  if (differ.length === 0) return `same (${Object.keys(ghz).length})`;
  const more = differ.length > 2 ? `; +${differ.length - 2} more` : "";
  return differ.slice(0, 2).join("; ") + more;
}

if (import.meta.main) Deno.exit(await main(Deno.args));
