/**
 * @module
 * The `attack` cases of tests/bad_input_test.ts: its flags with a wrong type, an out-of-range value, an
 * unknown name, a missing or unreadable file, over a cap, and over the open-file limit. Data only: the
 * test runs them.
 */
import { type Case, type Ctx, fifo, sparse } from "./bad_input_shapes.ts";

const attack = (...rest: string[]) => (c: Ctx) => ["attack", c.url, ...rest];

export const ATTACK: Case[] = [
  // A URL the parser refuses names the part to fix: a zone, the host, the port, a character in the host.
  ...([
    ["http://[fe80::1%25lo]:9/", /the IPv6 zone in \[fe80::1%25lo\] cannot be written in a URL/],
    ["http://127.0.0.1:65536/", /port "65536" is not a number from 1 to 65535/],
    ["http://:9/", /no host after \/\/: write one/],
    ["http://exa mple.com/", /the host "exa mple.com" holds a character no host name may: write/],
  ] as const).map(([url, name]) => ({
    name: `attack URL ${url}`,
    args: () => ["attack", url],
    names: [name],
  })),
  { name: "attack -c wrong type", args: attack("-c", "abc"), names: [/-c "abc"/] },
  { name: "attack -c negative", args: attack("-c", "-3"), names: [/-c "-3"/] },
  { name: "attack -c 0", args: attack("-c", "0"), names: [/-c "0"/] },
  { name: "attack -d 0s", args: attack("-d", "0s"), names: [/-d "0s"/] },
  { name: "attack -d bad unit", args: attack("-d", "10x"), names: [/-d "10x"/] },
  {
    name: "attack -d with a no-break space",
    args: attack("-d", "1\u00a0s"),
    names: [/-d "1\\u00a0s": not a duration/],
  },
  // A space before or after a number or a duration is refused alike, whichever side and flag.
  ...([["-d", "1s "], ["-d", " 1s"], ["--interval", "1s\t"], ["-n", "3 "], ["-R", " 5"], [
    "-w",
    "2 ",
  ]] as const)
    .map(([flag, value]) => ({
      name: `attack ${flag} ${JSON.stringify(value)}`,
      args: attack(flag, value),
      names: [new RegExp(`${flag} ".*": has a space before or after it: drop it`)],
    })),
  // A number written another locale's way says so: digits outside 0-9, a decimal comma.
  ...([["-d", "２s"], ["-n", "٥"], ["-c", "٢"]] as const).map(([flag, value]) => ({
    name: `attack ${flag} ${value} (not ASCII digits)`,
    args: attack(flag, value),
    names: [new RegExp(`${flag} "${value}": .*write its digits as 0-9`)],
  })),
  { name: "attack -R 1,5", args: attack("-R", "1,5"), names: [/-R "1,5": .*a comma is no decimal point/] },
  // A sign pasted from rich text (U+2212 minus, an en dash) is named: the value looks right.
  ...([["-c", "\u22122"], ["-n", "\u20133"]] as const).map(([flag, value]) => ({
    name: `attack ${flag} ${value} (a sign look-alike)`,
    args: attack(flag, value),
    names: [new RegExp(`${flag} "${value}": .*U\\+(2212|2013) looks like "-" but is not`)],
  })),
  {
    name: "attack -o in a missing folder",
    args: (c) => ["attack", c.url, "-o", `${c.dir}/no such/r.json`],
    names: [/-o .*\/no such\/r\.json: cannot write: .*; its folder does not exist: make it first/],
    code: 5,
  },
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
  {
    name: "attack flag with an en dash",
    args: attack("\u2013c", "2"),
    names: [/"–c" starts with U\+2013.*write -c/],
  },
  {
    name: "attack -b @file (curl's)",
    args: attack("-m", "POST", "-b", "@body.json"),
    names: [/--body-file body\.json/],
  },
  { name: "attack -o - (no stdout)", args: attack("-o", "-"), names: [/-o "-": names no file/] },
  { name: "attack --report -", args: attack("--report", "-"), names: [/--report "-": names no file/] },
  {
    name: "attack -o a folder path",
    args: (c) => ["attack", c.url, "-o", `${c.dir}/new/`],
    names: [/-o .*\/new\/: cannot write: names a folder: give a file's path, e\.g\. .*\/new\/results\.json/],
    code: 5,
  },
  { name: "attack -H without colon", args: attack("-H", "nocolon"), names: [/-H "nocolon"/] },
  {
    // A million columns made one 9 MB line naming them all.
    name: "attack placeholder of no column of a wide data file",
    args: (c) => {
      const path = `${c.dir}/wide.csv`;
      const columns = Array.from({ length: 5000 }, (_, i) => `c${i}`);
      Deno.writeTextFileSync(path, `${columns.join(",")}\n${columns.map(() => "1").join(",")}\n`);
      return ["attack", `${c.url}?x={{ id }}`, "--data-file", path];
    },
    names: [
      /\{\{ id \}\} is unknown: wide\.csv has no such column \(its columns: c0, .*, c9 and 4,990 more\)/,
    ],
  },
  ...([
    ["utf16.csv", "\uFEFFid\n1\n", "utf-16le", /utf16\.csv: is not UTF-8 text \(line 1; UTF-16/],
    ["ragged.csv", "id,name\n1\n", "utf-8", /ragged\.csv:2: has 1 fields; the header has 2: give each row 2/],
    ["rows.json", '{"id":1}', "utf-8", /rows\.json: is not an array of objects: give a JSON array/],
  ] as const).map(([file, text, encoding, name]): Case => ({
    name: `attack --data-file ${file}`,
    args: (c) => {
      const bytes = encoding === "utf-8"
        ? new TextEncoder().encode(text)
        : new Uint8Array(Uint16Array.from(text, (ch) => ch.charCodeAt(0)).buffer);
      Deno.writeFileSync(`${c.dir}/${file}`, bytes);
      return ["attack", `${c.url}?x={{ id }}`, "--data-file", `${c.dir}/${file}`];
    },
    names: [name],
  })),
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
  {
    name: "attack -d units out of order",
    args: attack("-d", "30s1m"),
    names: [/-d "30s1m": .*largest first/],
  },
];
