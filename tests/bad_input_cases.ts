/**
 * @module
 * The command-line cases of tests/bad_input_test.ts besides `attack` (tests/bad_input_attack.ts): `run`'s
 * flags and every other command's flags and arguments with a wrong type, an out-of-range value, an unknown
 * name, a missing or unreadable file, and over the open-file limit. Data only: the test runs them.
 */
import { type Case, type Ctx, experiment, fifo, sparse } from "./bad_input_shapes.ts";

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
    name: "run a plan of days (a sweep's product)",
    yaml: (c) => c.base,
    runFlags: ["--set", "loads.closed.duration=1h", "--set", "repeats=30"],
    names: [/case-\d+\.yaml: 60 runs of about 30 h together .*over a day; give --long to run it/],
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
    runFlags: ["--out-dri", "x"],
    names: [/--out-dri: unknown flag; did you mean --out-dir\?/],
  },
  {
    name: "run -o without KIND=",
    yaml: (c) => c.base,
    runFlags: ["-o", "x"],
    names: [/-o x: run writes its results to --out-dir; -o takes KIND=URL/],
  },
  { name: "demo extra argument", args: () => ["demo", "extra"], names: [/unexpected argument "extra"/] },
  { name: "unknown command", args: () => ["attak"], names: [/unknown command "attak"/] },
];

export const OTHERS: Case[] = [
  {
    name: "run a TOML file",
    args: (c) => ["run", `${c.dir}/exp.toml`],
    names: [/exp\.toml: an experiment file is YAML or JSON; write it in one of them/],
  },
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
    name: "serve --port in use",
    args: (c) => ["serve", "--port", new URL(c.url).port],
    names: [/^loadlab serve: --port \d+: 127\.0\.0\.1:\d+ is in use/],
  },
  {
    name: "serve --grpc-port in use",
    args: (c) => ["serve", "--grpc-port", new URL(c.url).port],
    names: [/^loadlab serve: --grpc-port \d+: 127\.0\.0\.1:\d+ is in use/],
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
    name: "gate without a rule (it would pass any change)",
    args: (c) => ["gate", c.file, "--baseline", c.file],
    names: [/no --fail-on rule: a gate with none passes any change; give one, e\.g\. --fail-on "p99 \+10%"/],
  },
  {
    name: "gate --fail-on with a full-width plus",
    args: (c) => ["gate", c.file, "--baseline", c.file, "--fail-on", "p50 \uFF0B20%"],
    names: [/--fail-on "p50 ＋20%": not understood; U\+FF0B looks like "\+" but is not/],
  },
  {
    name: "gate --junit a folder",
    args: (c) => ["gate", GATE_RUN, "--baseline", GATE_RUN, "--fail-on", "p99 +50%", "--junit", c.folder],
    names: [/--junit .*adir: cannot write: .*; give a file's path, not a folder's/],
    code: 5,
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
    name: "run a YAML file over the YAML cap",
    yaml: (c) => `${c.base}# ${"x".repeat(2 ** 20)}\n`,
    names: [/case-\d+\.yaml: \(file\): over the 1 MiB read as YAML .*write it as JSON \(read up to 4 MiB\)/],
  },
  {
    name: "run a YAML file of brackets nested past the limit",
    yaml: (c) => `${c.base}description: ${"[".repeat(10_000)}${"]".repeat(10_000)}\n`,
    names: [
      /case-\d+\.yaml: \(file\): lists and mappings in brackets must nest at most 64 levels deep: flatten/,
    ],
  },
  {
    name: "run a YAML file of more aliases than the limit",
    yaml: (c) => `${c.base}x: &a 1\nl: [${Array(1_001).fill("*a").join(", ")}]\n`,
    names: [/case-\d+\.yaml: \(file\): has more than 1000 aliases \(\*name\): write the values out/],
  },
  {
    name: "report a device",
    args: () => ["report", "/dev/zero"],
    names: [/\/dev\/zero: cannot read: is a character device/],
  },
  { name: "report a FIFO", args: (c) => ["report", fifo(c)], names: [/fifo: cannot read: is a FIFO/] },
  {
    name: "report a file of NUL bytes",
    args: (c) => ["report", sparse(c, "nul.json", 4096)],
    names: [
      /nul\.json: not JSON \(Unexpected token '\\u0000': a NUL byte, so binary or never fully written\)/,
    ],
  },
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
  {
    name: "run a UTF-16 file",
    args: (c) => ["run", bytesFile(c, "utf16.yaml", utf16(c.base))],
    names: [/utf16\.yaml: cannot read: is not UTF-8 text \(line 1; UTF-16 .*: use UTF-8/],
  },
  {
    name: "run a file that is not UTF-8",
    args: (c) => ["run", bytesFile(c, "latin1.yaml", new Uint8Array([...utf8("name: b\nx: "), 0xe9, 0x0a]))],
    names: [/latin1\.yaml: cannot read: is not UTF-8 text \(line 2; .*: use UTF-8/],
  },
  {
    name: "run --out-dir a file",
    args: (c) => ["run", experiment(c), "--out-dir", c.file],
    names: [/--out-dir .*afile: File exists .*; give a writable folder/],
    code: 5,
  },
  {
    name: "run --out-dir under a file",
    args: (c) => ["run", experiment(c), "--out-dir", `${c.file}/out`],
    names: [/--out-dir .*afile\/out: Not a directory.*; give a writable folder/],
    code: 5,
  },
];

const GATE_RUN = new URL("fixtures/gate_runs/quiet_sleep5.json", import.meta.url).pathname;
const utf8 = (text: string) => new TextEncoder().encode(text);
/** `text` as UTF-16 little-endian with its byte-order mark, as Windows editors save "Unicode". */
const utf16 = (text: string) =>
  new Uint8Array([0xff, 0xfe, ...[...text].flatMap((ch) => [ch.charCodeAt(0), 0])]);

function bytesFile(c: Ctx, name: string, bytes: Uint8Array): string {
  Deno.writeFileSync(`${c.dir}/${name}`, bytes);
  return `${c.dir}/${name}`;
}
