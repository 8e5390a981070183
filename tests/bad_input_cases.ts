/**
 * @module
 * The command-line cases of tests/bad_input_test.ts: each command's flags and arguments with a wrong
 * type, an out-of-range value, an unknown name, a missing or unreadable file, and over the open-file
 * limit; and the shapes every case shares (`Case`, `Ctx`, the base experiment and its editors, used by
 * tests/bad_input_fields.ts). Data only: the test runs them.
 */
import { ok } from "node:assert/strict";

/** Where a case runs: the counter's URL, a folder with a file and a folder in it, a base experiment. */
export interface Ctx {
  url: string;
  dir: string;
  file: string;
  folder: string;
  /** A valid experiment against the counter; cases edit it with `edit()`. */
  base: string;
}

export interface Case {
  name: string;
  /** The command line after `deno run -A main.ts`. */
  args?: (c: Ctx) => string[];
  /** An experiment file: `run FILE --out-dir D` is the command line. */
  yaml?: (c: Ctx) => string;
  /** Extra flags after the experiment file. */
  runFlags?: string[];
  /** What the one line (or each line) must name, in order. */
  names: RegExp[];
  /** Run under `ulimit -n` this low. */
  ulimit?: number;
}

export const BASE = (url: string) =>
  `name: base
targets:
  t: { url: "${url}" }
loads:
  closed: { model: connections, connections: 2, duration: 200ms }
  burst:
    model: rate
    phases:
      - { duration: 100ms, rate: 10 }
      - { duration: 100ms, rate: 10, rampTo: 20 }
`;

export const edit = (from: string, to: string) => (c: Ctx) => {
  ok(c.base.includes(from), `the base experiment has ${from}`);
  return c.base.replace(from, to);
};
export const add = (text: string) => (c: Ctx) => c.base + text;
export const target = (spec: string) => edit(`t: { url: "`, `t: ${spec}\n  u: { url: "`);
const attack = (...rest: string[]) => (c: Ctx) => ["attack", c.url, ...rest];

export const ATTACK: Case[] = [
  { name: "attack -c wrong type", args: attack("-c", "abc"), names: [/-c "abc"/] },
  { name: "attack -c negative", args: attack("-c", "-3"), names: [/-c "-3"/] },
  { name: "attack -c 0", args: attack("-c", "0"), names: [/-c "0"/] },
  { name: "attack -d 0s", args: attack("-d", "0s"), names: [/-d "0s"/] },
  { name: "attack -d bad unit", args: attack("-d", "10x"), names: [/-d "10x"/] },
  { name: "attack -n 0", args: attack("-n", "0"), names: [/-n "0"/] },
  { name: "attack -R negative", args: attack("-R", "-5"), names: [/-R "-5"/] },
  { name: "attack --ramp-to wrong type", args: attack("--ramp-to", "fast"), names: [/--ramp-to "fast"/] },
  { name: "attack --phases negative rate", args: attack("--phases", "1s@-1"), names: [/--phases/] },
  { name: "attack --phases zero length", args: attack("--phases", "0s@10"), names: [/--phases/] },
  { name: "attack --model unknown", args: attack("--model", "closed"), names: [/--model "closed"/] },
  {
    name: "attack --max-connections 0",
    args: attack("-R", "10", "--max-connections", "0"),
    names: [/--max-connections/],
  },
  {
    name: "attack --pre-connect negative",
    args: attack("-R", "10", "--pre-connect", "-1"),
    names: [/--pre-connect/],
  },
  { name: "attack -m not a method", args: attack("-m", "G E T"), names: [/-m "G E T"/] },
  { name: "attack -H without colon", args: attack("-H", "nocolon"), names: [/-H "nocolon"/] },
  {
    name: "attack --body-file missing",
    args: (c) => ["attack", c.url, "--body-file", `${c.dir}/none.json`],
    names: [/--body-file/],
  },
  {
    name: "attack --body-file a folder",
    args: (c) => ["attack", c.url, "--body-file", c.folder],
    names: [/--body-file/],
  },
  {
    name: "attack --body-file under a file",
    args: (c) => ["attack", c.url, "--body-file", `${c.file}/x`],
    names: [/--body-file/],
  },
  { name: "attack --mix weight 0", args: attack("--mix", "GET /a 0"), names: [/--mix "GET \/a 0"/] },
  { name: "attack --timeout 0s", args: attack("--timeout", "0s"), names: [/--timeout "0s"/] },
  { name: "attack -p 0", args: attack("-p", "0"), names: [/-p "0"/] },
  { name: "attack --transport unknown", args: attack("--transport", "fast"), names: [/--transport/] },
  { name: "attack -w 0", args: attack("-w", "0"), names: [/-w "0"/] },
  { name: "attack --interval 0s", args: attack("--interval", "0s"), names: [/--interval "0s"/] },
  {
    name: "attack --interval-histograms unknown",
    args: attack("--interval-histograms", "all"),
    names: [/--interval-histograms/],
  },
  { name: "attack --segment out of range", args: attack("--segment", "5/4"), names: [/--segment 5\/4/] },
  { name: "attack --start-at not a time", args: attack("--start-at", "soon"), names: [/--start-at "soon"/] },
  {
    name: "attack --start-at in the past",
    args: attack("-R", "10", "-d", "1s", "--start-at", "2000-01-01T00:00:00Z"),
    names: [/--start-at 2000-01-01T00:00:00Z: is \d+ days in the past/],
  },
  { name: "attack --threshold unknown metric", args: attack("--threshold", "p98<1ms"), names: [/p98/] },
  {
    name: "attack --dashboard-port out of range",
    args: attack("--dashboard-port", "70000"),
    names: [/--dashboard-port "70000"/],
  },
  { name: "attack --host empty", args: attack("--host", ""), names: [/--host ""/] },
  {
    name: "attack --host that does not resolve",
    args: attack("-n", "5", "--dashboard-port", "0", "--host", "no-such-host.invalid"),
    names: [/--dashboard: cannot listen on no-such-host\.invalid/],
  },
  { name: "attack -T empty", args: attack("-T", ""), names: [/-T "": must not be empty/] },
  { name: "attack unknown flag", args: attack("--bogus"), names: [/--bogus/] },
  { name: "attack flag without value", args: attack("-c"), names: [/-c: missing value/] },
  { name: "attack not an http URL", args: () => ["attack", "ftp://x/"], names: [/ftp:\/\/x\//] },
  {
    name: "attack -c over the open-file limit",
    args: attack("-c", "300", "-d", "1s"),
    names: [/-c 300.*limit is 256.*ulimit -n/],
    ulimit: 256,
  },
  {
    name: "attack --max-connections over the limit",
    args: attack("-R", "10", "--max-connections", "900"),
    names: [/--max-connections 900.*ulimit -n/],
    ulimit: 256,
  },
  // Caps of rates, durations and input files (README's flags text).
  {
    name: "attack -R over the cap",
    args: attack("-R", "100000000", "-d", "1s"),
    names: [/-R "100000000".*10,000,000/],
  },
  { name: "attack -R 1e12", args: attack("-R", "1e12"), names: [/-R "1e12".*10,000,000/] },
  {
    name: "attack -n at -R longer than 7 days",
    args: attack("-n", "100000000000", "-R", "10"),
    names: [/-n: 100000000000 requests at 10\/s take longer than 7 days/],
  },
  { name: "attack -d over 7 days", args: attack("-d", "99999999999h"), names: [/-d "99999999999h".*7 days/] },
  {
    name: "attack --phases over 7 days",
    args: attack("--phases", "100h@1,100h@1"),
    names: [/--phases.*7 days/],
  },
  {
    name: "attack --body-file a device",
    args: (c) => ["attack", c.url, "--body-file", "/dev/zero"],
    names: [/--body-file "\/dev\/zero": is a character device, not a regular file/],
  },
  {
    name: "attack --body-file a FIFO",
    args: (c) => ["attack", c.url, "--body-file", fifo(c)],
    names: [/--body-file ".*fifo": is a FIFO, not a regular file/],
  },
  {
    name: "attack --body-file over the cap",
    args: (c) => ["attack", c.url, "--body-file", sparse(c, "body.bin", 17 * 2 ** 20)],
    names: [/--body-file ".*body\.bin": is 17 MiB, over the cap of 16 MiB/],
  },
];

export const RUN_FLAGS: Case[] = [
  {
    name: "run missing file",
    args: (c) => ["run", `${c.dir}/none.yaml`],
    names: [/none\.yaml: cannot read: no such file/],
  },
  { name: "run a folder", args: (c) => ["run", c.folder], names: [/adir: cannot read: is a folder/] },
  {
    name: "run a path under a file",
    args: (c) => ["run", `${c.file}/x.yaml`],
    names: [/x\.yaml: cannot read/],
  },
  { name: "run unknown preset", args: () => ["run", "preset:nope"], names: [/preset:nope: no such preset/] },
  {
    name: "run --only unknown target",
    yaml: (c) => c.base,
    runFlags: ["--only", "target=nope"],
    names: [/--only: no target named "nope"/],
  },
  {
    name: "run --only unknown load",
    yaml: (c) => c.base,
    runFlags: ["--only", "load=nope"],
    names: [/--only: no load named "nope"/],
  },
  {
    name: "run --set out of range",
    yaml: (c) => c.base,
    runFlags: ["--set", "repeats=0"],
    names: [/repeats: .*>= 1/],
  },
  {
    name: "run --set unknown path",
    yaml: (c) => c.base,
    runFlags: ["--set", "nope.x=1"],
    names: [/--set nope\.x=1/],
  },
  {
    name: "run --target unknown name",
    yaml: (c) => c.base,
    runFlags: ["--target", "x=http://127.0.0.1:1/"],
    names: [/--target x=/],
  },
  {
    name: "run --target not a URL",
    yaml: (c) => c.base,
    runFlags: ["--target", "t=ftp://x"],
    names: [/--target "t=ftp:\/\/x"/],
  },
  {
    name: "run --segment out of range",
    yaml: (c) => c.base,
    runFlags: ["--segment", "9/2"],
    names: [/--segment 9\/2/],
  },
  {
    name: "run --dashboard-port wrong type",
    yaml: (c) => c.base,
    runFlags: ["--dashboard-port", "x"],
    names: [/--dashboard-port "x"/],
  },
  {
    name: "run unknown flag",
    yaml: (c) => c.base,
    runFlags: ["-o", "x"],
    names: [/-o: unknown flag; use --out-dir/],
  },
  { name: "demo extra argument", args: () => ["demo", "extra"], names: [/unexpected argument "extra"/] },
  { name: "unknown command", args: () => ["attak"], names: [/unknown command "attak"/] },
];

export const OTHERS: Case[] = [
  { name: "serve --port out of range", args: () => ["serve", "--port", "70000"], names: [/--port "70000"/] },
  { name: "serve --instances 0", args: () => ["serve", "--instances", "0"], names: [/--instances "0"/] },
  {
    name: "serve --balance unknown",
    args: () => ["serve", "--balance", "random"],
    names: [/--balance "random"/],
  },
  {
    name: "serve --cache-ttl negative",
    args: () => ["serve", "--cache-ttl", "-1"],
    names: [/--cache-ttl "-1"/],
  },
  {
    name: "serve --rate-limit 0",
    args: () => ["serve", "--rate-limit", "0/1s"],
    names: [/--rate-limit "0\/1s"/],
  },
  {
    name: "serve --redis not a URL",
    args: () => ["serve", "--redis", "localhost"],
    names: [/--redis "localhost"/],
  },
  {
    name: "serve --static-dir missing",
    args: (c) => ["serve", "--static-dir", `${c.dir}/none`],
    names: [/--static-dir .*no such folder/],
  },
  {
    name: "serve --static-dir a file",
    args: (c) => ["serve", "--static-dir", c.file],
    names: [/--static-dir .*not a folder/],
  },
  { name: "serve --host empty", args: () => ["serve", "--host="], names: [/--host ""/] },
  {
    name: "serve --host that does not resolve",
    args: () => ["serve", "--host", "no-such-host.invalid"],
    names: [/--host no-such-host\.invalid: cannot listen/],
  },
  {
    name: "report missing file",
    args: (c) => ["report", `${c.dir}/none.json`],
    names: [/none\.json: cannot read/],
  },
  { name: "report a file that is not JSON", args: (c) => ["report", c.file], names: [/afile: not JSON/] },
  {
    name: "report unknown flag",
    args: () => ["report", "--bogus"],
    names: [/--bogus: unknown flag; see loadlab report --help/],
  },
  { name: "merge a folder", args: (c) => ["merge", c.folder], names: [/adir: cannot read/] },
  { name: "report -o empty", args: (c) => ["report", c.file, "-o", ""], names: [/-o "": empty path/] },
  {
    name: "merge --report empty",
    args: (c) => ["merge", c.file, "--report="],
    names: [/--report "": empty path/],
  },
  { name: "site missing folder", args: (c) => ["site", `${c.dir}/none`], names: [/none: no such folder/] },
  { name: "site a file", args: (c) => ["site", c.file], names: [/afile: is not a folder/] },
  { name: "site --static empty", args: (c) => ["site", c.folder, "--static", ""], names: [/--static ""/] },
  {
    name: "presets unknown flag",
    args: () => ["presets", "--bogus"],
    names: [/--bogus: unknown flag; see loadlab presets/],
  },
  { name: "schema takes no arguments", args: () => ["schema", "x"], names: [/takes no arguments/] },
  {
    name: "version takes no arguments",
    args: () => ["version", "x"],
    names: [/version: takes no arguments/],
  },
  {
    name: "report -o its own input",
    args: (c) => ["report", c.file, "-o", c.file],
    names: [/report: -o .*afile is the same file as the input .*afile.*give -o another path/],
  },
  {
    name: "report -o the --compare file by another name",
    args: (c) => ["report", c.file, "--compare", c.file, "-o", `${c.dir}/./afile`],
    names: [/-o .*is the same file as the input/],
  },
  {
    name: "merge --report over a shard",
    args: (c) => ["merge", c.file, "-o", `${c.dir}/merged.json`, "--report", c.file],
    names: [/merge: --report .*afile is the same file as the shard/],
  },
  {
    name: "attack -o over its --body-file",
    args: (c) => ["attack", c.url, "-m", "POST", "--body-file", c.file, "-o", c.file],
    names: [/attack: -o .*afile is the same file as --body-file/],
  },
  {
    name: "run a device",
    args: () => ["run", "/dev/zero"],
    names: [/\/dev\/zero: cannot read: is a character device/],
  },
  {
    name: "run an experiment file over the cap",
    args: (c) => ["run", sparse(c, "big.yaml", 5 * 2 ** 20)],
    names: [/big\.yaml: cannot read: is 5 MiB, over the cap of 4 MiB/],
  },
  {
    name: "report a device",
    args: () => ["report", "/dev/zero"],
    names: [/\/dev\/zero: cannot read: is a character device/],
  },
  { name: "report a FIFO", args: (c) => ["report", fifo(c)], names: [/fifo: cannot read: is a FIFO/] },
  {
    name: "merge a device",
    args: (c) => ["merge", "/dev/zero", c.file],
    names: [/\/dev\/zero: cannot read: is a character device/],
  },
  {
    name: "run --set through __proto__",
    args: (c) => ["run", experiment(c), "--set", "__proto__.polluted=1"],
    names: [/--set __proto__\.polluted=1: "__proto__" is a reserved word/],
  },
  {
    name: "run --target named __proto__",
    args: (c) => ["run", experiment(c), "--target", `__proto__=${c.url}`],
    names: [/--target "__proto__=.*": "__proto__" is a reserved word/],
  },
];

/** A FIFO in the case folder (made once): opening it to read would wait for a writer forever. */
function fifo(c: Ctx): string {
  const path = `${c.dir}/fifo`;
  if (!exists(path)) new Deno.Command("mkfifo", { args: [path] }).outputSync();
  return path;
}

/** A sparse file of `bytes` (no disk used): over a cap by its size alone. */
function sparse(c: Ctx, name: string, bytes: number): string {
  const path = `${c.dir}/${name}`;
  using file = Deno.openSync(path, { create: true, write: true });
  file.truncateSync(bytes);
  return path;
}

/** The base experiment written to the case folder, for flags that need a valid file. */
function experiment(c: Ctx): string {
  const path = `${c.dir}/base.yaml`;
  Deno.writeTextFileSync(path, c.base);
  return path;
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
