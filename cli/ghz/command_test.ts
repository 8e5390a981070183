/**
 * `loadlab ghz`: ghz's command line read as ghz reads it (its defaults, -z over -n, -x bounding -n, a
 * config file under the flags) and ghz's exit codes for what is refused: 1 for ghz's own errors, 2 for what
 * loadlab would run otherwise than ghz.
 */
import { deepStrictEqual as assertEquals, match, ok as assert, throws } from "node:assert/strict";
import { ghzCommandLine, runGhzCommand } from "./command.ts";
import type { UsageError } from "../usage_error.ts";
import { GREETER_PROTO, nodeGreeterSkip, withNodeGreeter } from "../../tests/fixtures/node_greeter.ts";
import { selfSignedPair } from "../../targets/tls_cert.ts";
import { influxTags } from "../../results/export/ghz/report.ts";

const CALL = ["--insecure", "--call", "helloworld.Greeter.SayHello"];
const GREETER_CASES: Array<[string, (port: number) => Promise<void>]> = [];
/** A case run against the greeter shared by the file (its last test). */
const greeterCase = (name: string, fn: (port: number) => Promise<void>) => GREETER_CASES.push([name, fn]);

Deno.test("ghz's defaults, and -z or -x against -n, as ghz reads them", () => {
  assertEquals(ghzCommandLine([...CALL, "127.0.0.1:1"]).attack, [
    "grpc://127.0.0.1:1",
    "--call",
    "helloworld.Greeter.SayHello",
    "-O",
    "summary",
    "-n",
    "200",
    "--timeout",
    "20s",
    "--connect-timeout",
    "10s",
    "--max-receive",
    "2147483647",
    "--max-send",
    "2147483647",
    "--connections",
    "1",
    "-c",
    "50",
    "--reflect",
  ]);
  const words = (argv: string[]) => ghzCommandLine([...CALL, ...argv, "h:1"]).attack.join(" ");
  // A stream's pause and a concurrency schedule go to the run itself (no attack flag has them).
  const paced = ghzCommandLine([...CALL, "--stream-interval", "20ms", "h:1"]);
  assertEquals([paced.streamIntervalMs, paced.concurrencySteps], [20, undefined]);
  assertEquals(words(["-z", "2s", "-n", "50"]).includes("-d 2s --timeout"), true);
  assertEquals(words(["-z", "2s", "-n", "50"]).includes("-n"), false);
  // ghz's -x is a duration as -z is: the count is ignored.
  assertEquals(
    words(["-n", "100", "-x", "1s"]).includes("-d 1s --timeout 20s --connect-timeout 10s --graceful-stop 0s"),
    true,
  );
  assertEquals(words(["-n", "100", "-x", "1s"]).split(" ").includes("-n"), false);
  // At -z's end ghz cuts the calls in flight ("close"), or waits for them.
  assertEquals(words(["-z", "1s", "--duration-stop", "wait"]).includes("--graceful-stop 20s"), true);
  assertEquals(words(["-z", "1s", "--duration-stop", "later"]).includes("--graceful-stop 20s"), true);
  // --async: a count's calls all in flight at once, paced by --rps when given; beside a duration, refused.
  assertEquals(words(["--async", "-n", "100", "-c", "5"]).includes("--connections 1 -c 100"), true);
  assertEquals(
    words(["--async", "--rps", "50", "-n", "20"]).includes("--max-connections 1 --streams 20"),
    true,
  );
  throws(() => words(["--async", "-z", "1s"]), /--async beside a duration without --rps: not run by loadlab/);
  // Paced over a duration: a call lives at most -t, so the rate times it is the most in flight.
  assertEquals(words(["--async", "--rps", "20", "-z", "1s"]).includes("--connections 1 -c 400 "), true);
  assertEquals(words(["-z", "1s", "--duration-stop", "ignore"]).includes("--graceful-stop 0s"), true);
  // Paced calls to a count: up to ghz's calls in flight, over its connections.
  assertEquals(
    words(["-n", "10", "--rps", "5", "-c", "8", "--connections", "2"]).split(" ").includes("-c"),
    false,
  );
  assertEquals(
    words(["-n", "10", "--rps", "5", "-c", "8", "--connections", "2"]).includes(
      "--max-connections 2 --streams 4",
    ),
    true,
  );
  assertEquals(words(["-t", "0"]).includes("--timeout 168h"), true);
  // --cpus: ghz's cores, a worker isolate each as far as the connections go round.
  assertEquals(words(["--cpus", "2"]).includes("-w 1"), true);
  assertEquals(words(["--cpus", "2", "--connections", "4"]).includes("-w 2"), true);
  assertEquals(words(["-m", '{"x-user":"ann"}', "--rps=50"]).includes("-R 50"), true);
  assertEquals(words(["-m", '{"x-user":"ann"}']).endsWith("--reflect -H x-user: ann"), true);
  // dns:/// names the host as grpc-go resolves it: an IP is one address, whatever the balancing.
  const dns = ghzCommandLine([...CALL, "--lb-strategy", "round_robin", "dns:///127.0.0.1:1"]).attack[0];
  assertEquals(dns, "grpc://127.0.0.1:1");
  const dynamic = [
    "--stream-dynamic-messages",
    "-d",
    '{"name":"{{randomString 4}}"}',
    "--stream-call-count",
    "2",
  ];
  assertEquals(
    words(dynamic).includes('-b [{"name":"{{ $randomString(4) }}"},{"name":"{{ $randomString(4) }}"}]'),
    true,
  );
  const labels = ghzCommandLine([...CALL, "--name", "smoke", "--tags", '{"env":"ci"}', "h:1"]);
  assertEquals([labels.options?.name, labels.tags, labels.options?.call], [
    "smoke",
    { env: "ci" },
    "helloworld.Greeter.SayHello",
  ]);
});

Deno.test("a --config file's options, the flags given beside it winning", async () => {
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(
      file,
      JSON.stringify({ host: "h:1", insecure: true, total: 2000, concurrency: 8 }),
    );
    const attack = ghzCommandLine(["--config", file, "-n", "120"]).attack.join(" ");
    assertEquals([attack.startsWith("grpc://h:1 "), attack.includes("-n 120"), attack.includes("-c 8")], [
      true,
      true,
      true,
    ]);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("a word starting with @ is a file of words, a line each, as ghz's flag parser reads it", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/args`, `# the nightly's flags\n-n\n30\n-d\n@${dir}/data\n`);
    await Deno.writeTextFile(`${dir}/data`, '{"name":"from a file"}\n');
    const line = ghzCommandLine([...CALL, `@${dir}/args`, "h:1"]).attack.join(" ");
    assertEquals([line.includes("-n 30"), line.includes('-b {"name":"from a file"}')], [true, true]);
    // `-d @` names no file; a missing file is ghz's error.
    throws(() => ghzCommandLine([...CALL, "-d", "@", "h:1"]), /@: .*names no file.*-D \/dev\/stdin/);
    throws(() => ghzCommandLine([...CALL, `@${dir}/nope`, "h:1"]), /cannot read: no such file/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("ghz's flag parser's spellings: short flags run together, --no-BOOL, each flag once", () => {
  const words = (...argv: string[]) => ghzCommandLine([...CALL, ...argv, "h:1"]).attack.join(" ");
  assertEquals(words("-en", "10").includes("-n 10"), true);
  assertEquals(words("-en", "10").includes("--compress gzip"), true);
  assertEquals(words("-ec5").includes("-c 5"), true);
  // A short flag's "=" is its value's: `-O=json` is no format, `-c=5` no number.
  throws(() => words("-O=json"), /--format =json: not one of ghz's formats/);
  throws(() => words("-c=5"), /=5/);
  assertEquals(ghzCommandLine(["--no-insecure", "--call", "a.B.C", "h:1"]).attack[0], "grpcs://h:1");
  throws(() => words("-n", "10", "-n", "20"), /flag 'total' cannot be repeated/);
  throws(() => words("--no-insecure"), /flag 'insecure' cannot be repeated/);
  // A value starting with "-" is a flag to ghz's parser, unless it is "-" alone or given with "=".
  throws(() => words("--load-step", "-50"), /expected argument for flag '--load-step'/);
  throws(() => words("-t", "-1s"), /expected argument for flag '-t'/);
  assertEquals(words("--name", "-").includes("--data-file"), false);
  // "-" alone is the empty value: -D's no file (-d's message), -o's stdout, -n's no number.
  assertEquals(words("-d", '{"name":"a"}', "-D", "-", "-o", "-").includes('-b {"name":"a"}'), true);
  assertEquals(words("-o", "-").includes("-o"), false);
  throws(() => words("-n", "-"), /total/);
  assertEquals(
    words("--load-schedule=line", "--load-start=150", "--load-step=-50", "--load-end=50", "-z", "2s")
      .includes("--phases"),
    true,
  );
});

Deno.test("Go's values as ghz reads them: a null message is the empty one, a duration in ns or us", () => {
  const line = (...argv: string[]) => ghzCommandLine([...CALL, ...argv, "h:1"]);
  const message = (data: string) => line("-d", data).attack.at(line("-d", data).attack.indexOf("-b") + 1);
  assertEquals([message(" null"), message('[null,{"name":"a"}]')], ["{}", '[{},{"name":"a"}]']);
  // Go's "no value": a blank -d, -m or --tags is none (ghz trims them), null metadata or tags an empty map.
  assertEquals(line("-d", " ", "-m", "null", "--tags", " ").attack.some((w) => /^-[bH]$/.test(w)), false);
  assertEquals(line("--tags", "null", "--reflect-metadata", "").tags, {});
  assertEquals(line("--stream-interval", "1500us", "-z", "1s500000000ns").streamIntervalMs, 1.5);
  assertEquals(
    line("--stream-interval", "1500us", "-z", "1s500000000ns").attack.join(" ").includes("-d 1s500ms"),
    true,
  );
});

Deno.test("-D's and -M's files win over -d and -m beside them, as ghz takes them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/data.json`, '{"name":"file"}');
    await Deno.writeTextFile(`${dir}/meta.json`, '{"x-from":"file"}');
    const both = ["-d", '{"name":"inline"}', "-D", `${dir}/data.json`, "-m", '{"x-from":"inline"}'];
    const line = ghzCommandLine([...CALL, ...both, "-M", `${dir}/meta.json`, "h:1"]).attack.join(" ");
    assertEquals([line.includes('-b {"name":"file"}'), line.includes("-H x-from: file")], [true, true]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("-d's members in Go's order, as ghz re-marshals it; a -D object's as written; --data=@ empty", async () => {
  const dir = await Deno.makeTempDir();
  const message = (...argv: string[]) => {
    const attack = ghzCommandLine([...CALL, ...argv, "h:1"]).attack;
    return attack[attack.indexOf("-b") + 1];
  };
  try {
    // ghz decodes -d into Go's maps and encodes them again: keys sorted, at every depth.
    assertEquals(
      message("-d", '{"word":"w","number":7,"at":{"s":1,"n":2}}'),
      '{"at":{"n":2,"s":1},"number":7,"word":"w"}',
    );
    await Deno.writeTextFile(`${dir}/one.json`, '{"word":"w","number":7}');
    await Deno.writeTextFile(`${dir}/list.json`, '[{"word":"w","number":7}]');
    assertEquals([message("-D", `${dir}/one.json`), message("-D", `${dir}/list.json`)], [
      '{"word":"w","number":7}',
      '[{"number":7,"word":"w"}]',
    ]);
    // ghz v0.93's --data=@ on the command line is no data: the empty message, none in the report's options.
    const empty = ghzCommandLine([...CALL, "--data=@", "h:1"]);
    assertEquals([empty.attack.includes("-b"), empty.options?.data], [false, undefined]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--call as ghz reads it: a leading dot dropped, one slash at most", () => {
  const call = (name: string) => ghzCommandLine(["--insecure", "--call", name, "h:1"]).attack.join(" ");
  assertEquals(call(".helloworld.Greeter.SayHello").includes("--call helloworld.Greeter.SayHello "), true);
  assertEquals(call("Greeter/SayHello").includes("--call Greeter/SayHello "), true);
  for (const bad of ["/helloworld.Greeter/SayHello", "SayHello", "a/b/c"]) {
    throws(() => call(bad), /method name must be package.Service.Method or package.Service\/Method/);
  }
});

Deno.test("exit 1 for what ghz refuses, exit 2 for what loadlab would run otherwise", async () => {
  const proto = ["--proto", GREETER_PROTO, "127.0.0.1:1"];
  assertEquals(await runGhzCommand([...CALL, "--nope", ...proto]), 1);
  // ghz -v prints its version: a script's check that the tool is there.
  assertEquals(await runGhzCommand(["-v"]), 0);
  for (const help of ["--help", "--help-long", "--help-man"]) {
    assertEquals([help, await runGhzCommand([help])], [help, 0]);
  }
  // Keys of ghz's config file only.
  for (const key of ["--max-recv-message-size", "--max-send-message-size", "--disable-template-data"]) {
    assertEquals([key, await runGhzCommand([...CALL, `${key}=1`, ...proto])], [key, 1]);
  }
  assertEquals(await runGhzCommand(["--insecure", "--call", "helloworld.Greeter.Nope", ...proto]), 1);
  assertEquals(await runGhzCommand([...CALL, "-d", '{"nmae":"x"}', ...proto]), 1);
  // As ghz: "load start cannot equal load end".
  assertEquals(await runGhzCommand([...CALL, "--load-schedule", "step", ...proto]), 1);
  // ghz checks -c against --connections, whatever --async makes of it.
  assertEquals(await runGhzCommand([...CALL, "-c", "2", "--connections", "5", "--async", ...proto]), 1);
  // A host as a URL: ghz dials it as a name (every call Unavailable); loadlab dials HOST:PORT only.
  assertEquals(await runGhzCommand([...CALL, "--proto", GREETER_PROTO, "http://127.0.0.1:1"]), 2);
  // ghz balances over the addresses a name resolves to (and panics with no dns:///): loadlab dials one.
  for (const host of ["dns:///localhost:1", "127.0.0.1:1"]) {
    assertEquals(
      await runGhzCommand([...CALL, "--lb-strategy", "round_robin", "--proto", GREETER_PROTO, host]),
      2,
    );
  }
  // Each streamed message's templates filled apart: ghz refuses data with none.
  assertEquals(
    await runGhzCommand([...CALL, "--stream-dynamic-messages", "-d", '{"name":"x"}', ...proto]),
    1,
  );
  // ghz's -n 0 without a duration runs until it is stopped.
  assertEquals(await runGhzCommand([...CALL, "-n", "0", ...proto]), 2);
  // ghz reads -d as JSON before filling its templates.
  assertEquals(await runGhzCommand([...CALL, "-d", '{"count":{{randomInt 1 9}}}', ...proto]), 1);
  // Go parses ghz's durations with their unit, its counts and rates as whole numbers, its metadata and
  // tags as strings.
  for (const bad of [["-t", "1"], ["-z", "5"], ["--connect-timeout", "5"], ["--rps", "10.5"], ["-n", "-5"]]) {
    assertEquals([bad, await runGhzCommand([...CALL, ...bad, ...proto])], [bad, 1]);
  }
  assertEquals(await runGhzCommand([...CALL, "-m", '{"x-n":5}', ...proto]), 1);
  // grpc-go sends any metadata name, one HTTP/2 forbids too; loadlab sends none such.
  assertEquals(await runGhzCommand([...CALL, "-m", '{"bad key":"v"}', ...proto]), 2);
  // A deadline under a millisecond, which loadlab's clock does not keep.
  assertEquals(await runGhzCommand([...CALL, "-t", "500us", ...proto]), 2);
  assertEquals(await runGhzCommand([...CALL, "--tags", '{"n":5}', ...proto]), 1);
  // ghz's checks of a load schedule: a start equal to its end; a start of 0, where ghz's pacer panics.
  const load = ["--load-step", "10", "--load-step-duration", "1s", "--load-end", "20"];
  assertEquals(
    await runGhzCommand([...CALL, "--load-schedule=step", "--load-start=20", ...load, ...proto]),
    1,
  );
  assertEquals(
    await runGhzCommand([...CALL, "--load-schedule=line", "--load-start=0", ...load, ...proto]),
    2,
  );
  // A dial given no time fails at once in ghz; a balancer grpc-go lacks is ghz's panic.
  assertEquals(await runGhzCommand([...CALL, "--connect-timeout", "0", ...proto]), 1);
  const lb = ["--lb-strategy", "least_request", "--proto", GREETER_PROTO, "dns:///127.0.0.1:1"];
  assertEquals(await runGhzCommand([...CALL, ...lb]), 2);
});

Deno.test("counts as Go reads them in base 0, refused in Go's words; the attack's refusals in ghz's flags", async () => {
  const count = (n: string) => {
    const attack = ghzCommandLine([...CALL, "-n", n, "--proto", GREETER_PROTO, "h:1"]).attack;
    return attack[attack.indexOf("-n") + 1];
  };
  // kingpin's ParseUint(s, 0, 64): a prefix picks the base, a leading 0 is octal, `_` parts digits.
  assertEquals(["0x1F", "017", "0o17", "0b11", "1_000"].map(count), ["31", "15", "15", "3", "1000"]);
  for (const bad of ["1e9", "+5", "08", "1__0", "2.5"]) {
    throws(() => count(bad), { message: `--total: strconv.ParseUint: parsing "${bad}": invalid syntax` });
  }
  // A cap of loadlab's, met after ghz's line became an attack: the message names ghz's flags.
  const main = new URL("../../main.ts", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", main, "ghz", ...CALL, "-r", "1000000000", "--proto", GREETER_PROTO, "127.0.0.1:1"],
    stdout: "null",
    stderr: "piped",
  }).output();
  const words = new TextDecoder().decode(out.stderr);
  match(words, /--rps "1000000000": is over the cap .* e\.g\. --rps 1000/);
  assert(!/-R /.test(words), words);
});

Deno.test("ghz's zeros for --connections and --cpus, and a config's keys ghz does not know, run as ghz's", () => {
  const words = (argv: string[]) => ghzCommandLine([...CALL, ...argv, "h:1"]).attack.join(" ");
  assertEquals(words(["--connections", "0"]).includes("--connections 1 -c 50"), true);
  assertEquals(words(["--cpus", "0"]).includes(" -w "), false);
  const file = Deno.makeTempFileSync({ suffix: ".json" });
  try {
    Deno.writeTextFileSync(
      file,
      JSON.stringify({ host: "h:1", insecure: true, total: 7, "x-owner": "perf" }),
    );
    assertEquals(ghzCommandLine(["--config", file]).attack.join(" ").includes("-n 7"), true);
  } finally {
    Deno.removeSync(file);
  }
});

greeterCase(
  "a --config file's zero counts are its reader's defaults; a config path naming no file is none",
  async (port) => {
    const [file, out] = [await Deno.makeTempFile({ suffix: ".json" }), await Deno.makeTempFile()];
    try {
      const zeros = { total: 0, concurrency: 0, connections: 0, timeout: "0s", "connect-timeout": 0 };
      const run = { proto: GREETER_PROTO, call: "helloworld.Greeter.SayHello", insecure: true, ...zeros };
      await Deno.writeTextFile(file, JSON.stringify({ ...run, host: `127.0.0.1:${port}`, format: "json" }));
      assertEquals(await runGhzCommand(["--config", file, "-o", out]), 0);
      const report = JSON.parse(await Deno.readTextFile(out));
      assertEquals([report.count, report.options.concurrency, report.options.timeout], [200, 50, 20e9]);
      // The flags alone run, as ghz's config reader says the file is not there and goes on.
      const flags = [
        ...CALL,
        "--proto",
        GREETER_PROTO,
        "-n",
        "3",
        "-O",
        "csv",
        "-o",
        out,
        `127.0.0.1:${port}`,
      ];
      assertEquals(await runGhzCommand(["--config", `${file}.nope`, ...flags]), 0);
      assertEquals((await Deno.readTextFile(out)).trim().split("\n").length, 4);
    } finally {
      await Promise.all([file, out].map((f) => Deno.remove(f)));
    }
  },
);

greeterCase(
  "--rps to a count the server cannot keep up with makes every call, late, as ghz's workers do",
  async (port) => {
    const out = await Deno.makeTempFile({ suffix: ".json" });
    try {
      // 15 calls due in 150 ms, one at a time, each 100 ms: the last starts 1.3 s late.
      const slow = ["--call", "helloworld.Greeter.Sleep", "-d", '{"ms":100}', "--rps", "100", "-n", "15"];
      const argv = ["--insecure", ...slow, "-c", "1", "-O", "json", "-o", out, "--proto", GREETER_PROTO];
      assertEquals(await runGhzCommand([...argv, `127.0.0.1:${port}`]), 0);
      const report = JSON.parse(await Deno.readTextFile(out));
      assertEquals([report.count, report.statusCodeDistribution], [15, { OK: 15 }]);
    } finally {
      await Deno.remove(out);
    }
  },
);

greeterCase(
  "a load schedule to a count paces its calls along the schedule until the count, as ghz does",
  async (port) => {
    // 1 s at 20/s, then 40/s for the last 10: the count ends the run, 10 calls after the first second.
    const load = ["--load-schedule=line", "--load-start=20", "--load-step=20", "--load-end=60", "-n", "30"];
    const argv = [...CALL, "-d", '{"name":"x"}', ...load, "-c", "2", "--proto", GREETER_PROTO];
    const line = ghzCommandLine([...argv, `127.0.0.1:${port}`]);
    assertEquals(line.attack[line.attack.indexOf("--phases") + 1], "1000ms@20,237.5ms@40");
    const out = await Deno.makeTempFile({ suffix: ".json" });
    try {
      assertEquals(await runGhzCommand([...argv, "-O", "json", "-o", out, `127.0.0.1:${port}`]), 0);
      const report = JSON.parse(await Deno.readTextFile(out));
      assertEquals([report.count, report.endReason, report.statusCodeDistribution], [30, "normal", {
        OK: 30,
      }]);
      // No sooner than its pace: the last call is due at 1.225 s.
      assertEquals(report.total >= 1.2e9, true);
    } finally {
      await Deno.remove(out);
    }
  },
);

greeterCase(
  "paced calls past the server's pace: ghz's latency fields time each from its actual start, as ghz",
  async (port) => {
    // One call in flight, each 50 ms at the server, due 5 ms apart: call i starts >= 45 * i ms late.
    const sleep = ["--call", "helloworld.Greeter.Sleep", "-d", '{"ms":50}', "--rps", "200", "-n", "12"];
    const argv = ["--insecure", ...sleep, "-c", "1", "--proto", GREETER_PROTO, `127.0.0.1:${port}`];
    const [json, details] = [await Deno.makeTempFile(), await Deno.makeTempFile()];
    try {
      assertEquals(await runGhzCommand([...argv, "-O", "json", "-o", json]), 0);
      assertEquals(await runGhzCommand([...argv, "-O", "influx-details", "-o", details]), 0);
      const r = JSON.parse(await Deno.readTextFile(json));
      assertEquals(r.statusCodeDistribution, { OK: 12 });
      // One at a time, so their times from their starts add up to no more than the run: from the intended
      // sends they would add at least 12 * 50 + 45 * 66 ms. Node's timer runs on a millisecond clock read
      // once a loop turn, so a 50 ms sleep may end a millisecond early.
      assertEquals([r.fastest >= 48e6, r.average * r.count <= r.total], [true, true]);
      // Each call starts (ns) no sooner than the one before it ended; intended starts are 5 ms apart.
      const calls = (await Deno.readTextFile(details)).trim().split("\n")
        .map((l) => [Number(/ (\d+)$/.exec(l)![1]), Number(/latency=(\d+)/.exec(l)![1])])
        .sort((a, b) => a[0] - b[0]);
      const overlaps = calls.filter(([at], i) => i > 0 && at + 1000 < calls[i - 1][0] + calls[i - 1][1]);
      assertEquals([calls.length, overlaps.length], [12, 0]);
    } finally {
      await Promise.all([json, details].map((f) => Deno.remove(f)));
    }
  },
);

greeterCase("-O html writes the run's HTML page at -o FILE, else on stdout, as ghz does", async (port) => {
  const out = await Deno.makeTempFile({ suffix: ".html" });
  const { attack, page } = ghzCommandLine([...CALL, "-O", "html", "h:1"]);
  assertEquals(attack.slice(attack.indexOf("--report") - 1).slice(0, 3), ["-q", "--report", page]);
  try {
    const argv = [...CALL, "-d", '{"name":"x"}', "-n", "20", "-c", "2", "-O", "html", "-o", out];
    assertEquals(await runGhzCommand([...argv, "--proto", GREETER_PROTO, `127.0.0.1:${port}`]), 0);
    const page = await Deno.readTextFile(out);
    assertEquals([/^<!doctype html>/i.test(page), page.includes("SayHello")], [true, true]);
  } finally {
    await Deno.remove(out);
  }
});

Deno.test({
  name: "-t bounds each call, not its connection's TLS handshake (ghz's --connect-timeout does)",
  ignore: nodeGreeterSkip("ghz -t over TLS") !== null,
  fn: async () => {
    const dir = await Deno.makeTempDir();
    const tls = await selfSignedPair();
    const [ca, cert, key, out] = ["ca.pem", "cert.pem", "key.pem", "out.json"].map((f) => `${dir}/${f}`);
    await Promise.all(
      [[ca, tls.caPem], [cert, tls.certPem], [key, tls.keyPem]].map(([f, t]) => Deno.writeTextFile(f, t)),
    );
    try {
      await withNodeGreeter(async (port) => {
        // A handshake takes node more than 1 ms; each 50 ms call passes its 1 ms deadline.
        const slow = [
          "--call",
          "helloworld.Greeter.Sleep",
          "-d",
          '{"ms":50}',
          "-t",
          "1ms",
          "-n",
          "6",
          "-c",
          "2",
        ];
        const argv = [...slow, "--cacert", ca, "--cname", "localhost", "-O", "json", "-o", out];
        assertEquals(await runGhzCommand([...argv, "--proto", GREETER_PROTO, `127.0.0.1:${port}`]), 0);
        const report = JSON.parse(await Deno.readTextFile(out));
        assertEquals(report.statusCodeDistribution, { DeadlineExceeded: 6 });
      }, { TLS_CERT: cert, TLS_KEY: key });
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

greeterCase(
  "--stream-call-count and --stream-call-duration cancel a server stream at its Nth or late message",
  async (port) => {
    const out = await Deno.makeTempFile({ suffix: ".json" });
    try {
      // An endless stream (a message each 10 ms): ghz cancels each call, Canceled; -t 30s is never reached.
      const endless = [
        "--call",
        "helloworld.Greeter.SayHellos",
        "-d",
        '{"name":"s","count":-1}',
        "-t",
        "30s",
      ];
      for (const cut of [["--stream-call-count", "3"], ["--stream-call-duration", "50ms"]]) {
        const argv = [...endless, ...cut, "-n", "6", "-c", "2", "-O", "json", "-o", out];
        const startMs = performance.now();
        assertEquals(
          await runGhzCommand(["--insecure", ...argv, "--proto", GREETER_PROTO, `127.0.0.1:${port}`]),
          0,
        );
        const report = JSON.parse(await Deno.readTextFile(out));
        assertEquals([cut, report.statusCodeDistribution, report.errorDistribution], [
          cut,
          { Canceled: 6 },
          {
            "rpc error: code = Canceled desc = context canceled": 6,
          },
        ]);
        assertEquals(performance.now() - startMs < 30_000, true);
      }
      // A stream that ends before its Nth message is whole (OK), and a client stream's count is its sends.
      const short = ["--call", "helloworld.Greeter.SayHellos", "-d", '{"name":"s","count":2}'];
      const sends = ["--call", "helloworld.Greeter.Chat", "-d", '{"name":"s"}'];
      for (const call of [short, sends]) {
        const argv = [...call, "--stream-call-count", "3", "-n", "4", "-c", "2", "-O", "json", "-o", out];
        assertEquals(
          await runGhzCommand(["--insecure", ...argv, "--proto", GREETER_PROTO, `127.0.0.1:${port}`]),
          0,
        );
        assertEquals(JSON.parse(await Deno.readTextFile(out)).statusCodeDistribution, { OK: 4 });
      }
    } finally {
      await Deno.remove(out);
    }
  },
);

Deno.test("-O influx-*: the run's options as ghz's InfluxDB tags, as ghz v0.93 writes them", () => {
  const line = ghzCommandLine([
    ...CALL,
    "--proto",
    "g.proto",
    "-d",
    '{"name":"x y"}',
    "-n",
    "40",
    "-c",
    "4",
    "h:1",
  ]);
  const tagsOf = (run: typeof line) => influxTags(run.options!, run);
  assertEquals(
    tagsOf(line),
    'proto="g.proto",call="helloworld.Greeter.SayHello",host="h:1",n=40,c=4,rps=0,z=0,timeout=20,dial_timeout=10,' +
      'keepalive=0,data="{\\"name\\":\\"x\\ y\\"}",metadata="",tags=""',
  );
  const paced = ghzCommandLine([
    ...CALL,
    "--load-schedule=line",
    "--load-start=50",
    "--load-step=50",
    "--load-end=200",
    "--load-step-duration=300ms",
    "-z",
    "2s",
    "--tags",
    '{"env":"ci"}',
    "h:1",
  ]);
  match(
    tagsOf(paced),
    /,c=50,load-schedule=line,load-start=50,load-end=200,load-step=50,load-step-duration=1s,load-max-duration=0s,/,
  );
  // As ghz: a line's step is each second, in the tags and the JSON's options, whatever is given.
  assertEquals(paced.options?.["load-step-duration"], 1e9);
  match(tagsOf(paced), /n=2147483647,.*,z=2000000000,.*,data="null",.*,tags="{\\"env\\":\\"ci\\"}"$/);
  // A schedule's options not given are ghz's defaults: a concurrency step of 1.
  const stepped = ghzCommandLine([
    ...CALL,
    "--concurrency-schedule=line",
    "--concurrency-start=5",
    "--concurrency-end=10",
    "h:1",
  ]);
  match(
    tagsOf(stepped),
    /,concurrency-schedule=line,concurrency-start=5,concurrency-end=10,concurrency-step=1,concurrency-step-duration=1s,/,
  );
});

greeterCase(
  "latency over OK calls, and over every answered call with --count-errors, in each format, as ghz's",
  async (port) => {
    // Every other call is an endless stream cancelled at 1 s (Canceled); an OK call sends its one message
    // before the cut (else the cut would have cancelled it), all 8 at once.
    const streams = ["--call", "helloworld.Greeter.SayHellos", "-d", '[{"count":1},{"count":-1}]'];
    const cut = [...streams, "--stream-call-duration", "1s", "-n", "8", "-c", "8"];
    const out = await Deno.makeTempFile();
    const report = async (...more: string[]) => {
      const argv = ["--insecure", ...cut, ...more, "-o", out, "--proto", GREETER_PROTO];
      assertEquals(await runGhzCommand([...argv, `127.0.0.1:${port}`]), 0);
      return await Deno.readTextFile(out);
    };
    try {
      for (const countErrors of [false, true]) {
        const r = JSON.parse(await report("-O", "json", ...(countErrors ? ["--count-errors"] : [])));
        const { OK: ok = 0, Canceled: canceled = 0 } = r.statusCodeDistribution;
        assertEquals([r.count, ok + canceled, canceled >= 4], [8, 8, true]);
        // The histogram holds the calls its latency is over; the count and rate hold every call.
        const timed = r.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0);
        assertEquals([countErrors, timed], [countErrors, countErrors ? 8 : ok]);
        if (countErrors) assertEquals(r.slowest >= 1e9, true);
        assertEquals(r.latencyDistribution.at(-1).latency, r.slowest);
        assertEquals(r.rps * r.total / 1e9 > 7.99, true);
      }
      // The summary and influx-summary read the same fields.
      const slowest = /Slowest:\t([\d.]+) (m?s)/.exec(await report("-O", "summary"))!;
      assertEquals([slowest[2], Number(slowest[1]) < 1000], ["ms", true]);
      assertEquals(Number(/slowest=(\d+)/.exec(await report("-O", "influx-summary"))![1]) < 1e9, true);
    } finally {
      await Deno.remove(out);
    }
  },
);

greeterCase(
  "--count-errors times a call with no answer (a client deadline, no connection) until its error, as ghz",
  async (port) => {
    const out = await Deno.makeTempFile();
    const report = async (host: string, ...more: string[]) => {
      const argv = ["--insecure", "--proto", GREETER_PROTO, "--count-errors", ...more, "-o", out, host];
      assertEquals(await runGhzCommand(argv), 0);
      return await Deno.readTextFile(out);
    };
    try {
      const sleep = ["--call", "helloworld.Greeter.Sleep", "-d", '{"ms":800}', "-t", "150ms", "-n", "6"];
      const r = JSON.parse(await report(`127.0.0.1:${port}`, ...sleep, "-c", "3", "-O", "json"));
      assertEquals([r.count, r.statusCodeDistribution], [6, { DeadlineExceeded: 6 }]);
      const timed = r.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0);
      assertEquals(timed, 6);
      assertEquals(
        r.fastest >= 150e6 && r.slowest < 800e6 && r.average >= r.fastest,
        true,
        JSON.stringify(r),
      );
      // The CSV gives each its time.
      const rows = (await report(`127.0.0.1:${port}`, ...sleep, "-c", "3", "-O", "csv")).trim().split("\n");
      assertEquals(
        rows.slice(1).filter((row) => /^\d+\.\d\d,DeadlineExceeded,/.test(row)).length,
        6,
        rows.join("\n"),
      );
      // No server: each call fails on its connection, timed.
      const dead = ["--call", "helloworld.Greeter.SayHello", "-n", "4", "-c", "1", "-O", "json"];
      const d = JSON.parse(await report("127.0.0.1:1", ...dead));
      const deadTimed = (d.histogram ?? []).reduce((a: number, b: { count: number }) => a + b.count, 0);
      assertEquals([d.count, deadTimed], [4, 4], JSON.stringify(d));
      // -z's end cuts the calls in flight (Canceled), each timed until its cut; "ignore" drops them.
      const cut = ["--call", "helloworld.Greeter.Sleep", "-d", '{"ms":2000}', "-z", "300ms", "-c", "2"];
      const z = JSON.parse(await report(`127.0.0.1:${port}`, ...cut, "-O", "json"));
      const zTimed = z.histogram.reduce((a: number, b: { count: number }) => a + b.count, 0);
      // Timed until the cut, not to zero: a busy machine starts the calls late in the 300 ms.
      assertEquals([z.count, zTimed, z.slowest >= 100e6], [2, 2, true], JSON.stringify(z));
      const ignored = JSON.parse(
        await report(`127.0.0.1:${port}`, ...cut, "--duration-stop", "ignore", "-O", "json"),
      );
      assertEquals([ignored.count, ignored.average], [0, 0], JSON.stringify(ignored));
    } finally {
      await Deno.remove(out);
    }
  },
);

greeterCase(
  "a template Go fails to run is sent as written, as ghz sends it: the server's status carries it",
  async (port) => {
    const out = await Deno.makeTempFile({ suffix: ".json" });
    // The schema is the .proto's, or else (none given) the server's reflection's.
    const errors = async (
      message: string,
      data = `{"code":3,"message":"${message}"}`,
      method = "Fail",
      schema = ["--proto", GREETER_PROTO],
    ) => {
      const fail = ["--call", `helloworld.Greeter.${method}`, "-d", data];
      const argv = ["--insecure", ...fail, "-n", "3", ...schema, "-O", "json", "-o", out];
      assertEquals(await runGhzCommand([...argv, `127.0.0.1:${port}`]), 0);
      return JSON.parse(await Deno.readTextFile(out)).errorDistribution;
    };
    try {
      const desc = "rpc error: code = InvalidArgument desc = ";
      assertEquals(await errors("{{.Nope}} {{.RequestNumber}}"), {
        [`${desc}{{.Nope}} {{.RequestNumber}}`]: 3,
      });
      // A unary call's list: each message in turn, each filled apart (the second with its call's number).
      const list = '[{"code":3,"message":"{{.Nope}}"},{"code":3,"message":"{{.RequestNumber}}"}]';
      assertEquals(await errors("", list), { [`${desc}{{.Nope}}`]: 2, [`${desc}1`]: 1 });
      // A client stream's list is one text: a failing action leaves all of it as written (Collect's
      // status message is the names sent, in order).
      const names = '[{"name":"{{.Nope}}","count":3},{"name":"n{{.RequestNumber}}"},{"name":"c"}]';
      for (const schema of [undefined, []]) {
        assertEquals(await errors("", names, "Collect", schema), {
          [`${desc}{{.Nope}},n{{.RequestNumber}},c`]: 3,
        });
      }
      // A code gRPC has no name for, as grpc-go 1.34 names it.
      assertEquals(await errors("", '{"code":17,"message":"x"}'), {
        "rpc error: code = Code(17) desc = x": 3,
      });
      assertEquals(await errors("", list, "Fail", []), { [`${desc}{{.Nope}}`]: 2, [`${desc}1`]: 1 });
      assertEquals(await errors("", names.replace(".Nope", ".MethodName"), "Collect"), {
        [`${desc}Collect,n0,c`]: 1,
        [`${desc}Collect,n1,c`]: 1,
        [`${desc}Collect,n2,c`]: 1,
      });
      // ghz's call data: one UUID a call wherever .UUID is (newUUID a new one each), the method's
      // input type by reflection.
      const uuids = Object.keys(await errors("{{.UUID}} {{.UUID}} {{newUUID}}")).map((e) =>
        e.split(" ").slice(-3)
      );
      assert(
        uuids.length === 3 && uuids.every(([a, b, c]) => a === b && b !== c && /^[\da-f-]{36}$/.test(a)),
      );
      assertEquals(await errors("{{.InputName}}", undefined, "Fail", []), { [`${desc}FailRequest`]: 3 });
      // A -B file read against the server's reflection (no schema given): FailRequest{5, "bin"}.
      const bin = await Deno.makeTempFile();
      await Deno.writeFile(bin, new Uint8Array([8, 5, 18, 3, 98, 105, 110]));
      const argv = ["--insecure", "--call", "helloworld.Greeter.Fail", "-B", bin, "-n", "2", "-O", "json"];
      assertEquals(await runGhzCommand([...argv, "-o", out, `127.0.0.1:${port}`]), 0);
      const binErrors = JSON.parse(await Deno.readTextFile(out)).errorDistribution;
      assertEquals(binErrors, { "rpc error: code = NotFound desc = bin": 2 });
      await Deno.remove(bin);
      assertEquals(await errors("{{.RequestNumber}}{{/* c */}}"), {
        [`${desc}0`]: 1,
        [`${desc}1`]: 1,
        [`${desc}2`]: 1,
      });
    } finally {
      await Deno.remove(out);
    }
  },
);

Deno.test("each file a ghz line names, missing, a device, a FIFO or a folder: refused at once, the fix said", () => {
  const dir = Deno.makeTempDirSync();
  try {
    new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).outputSync();
    Deno.mkdirSync(`${dir}/dir`);
    for (const [name, why] of [["none", /no such file/], ["fifo", /FIFO/], ["dir", /folder/]] as const) {
      for (const flag of ["--config", "-D", "-M", "-B", "@"]) {
        if (flag === "--config" && name === "none") continue; // ghz runs without it
        const words = flag === "@" ? [`@${dir}/${name}`] : [flag, `${dir}/${name}`];
        throws(() => ghzCommandLine([...CALL, "--proto", GREETER_PROTO, ...words, "h:1"]), (e: Error) => {
          const said = e.message;
          assert(
            said.includes(`${dir}/${name}: cannot read: `) && why.test(said) && !said.includes("\n"),
            said,
          );
          return / give /.test(said);
        });
      }
    }
    throws(
      () => ghzCommandLine([...CALL, "-D", "/dev/zero", "h:1"]),
      /--data-file \/dev\/zero: .*character device/,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("ghz's files as Go reads them: a byte-order mark is no JSON, an empty -M no metadata, -D refused", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeFileSync(`${dir}/bom.json`, new TextEncoder().encode('\uFEFF{"name":"a"}'));
    Deno.writeTextFileSync(`${dir}/empty.json`, "");
    const line = (...argv: string[]) =>
      ghzCommandLine([...CALL, "--proto", GREETER_PROTO, ...argv, "h:1"]).attack;
    throws(() => line("-D", `${dir}/bom.json`), /--data-file: not JSON/);
    throws(() => line("-d", "{}", "-M", `${dir}/bom.json`), /--metadata/);
    assertEquals(line("-d", "{}", "-m", '{"x-a":"1"}', "-M", `${dir}/empty.json`).includes("-H"), false);
    throws(
      () => line("-D", `${dir}/empty.json`),
      (e: UsageError) => e.exitCode === 2 && /empty/.test(e.message),
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("-O json's options: ghz's own, key for key as ghz v0.93 writes them", () => {
  const line = ghzCommandLine([
    ...CALL,
    "--proto",
    "protos/g.proto",
    "-i",
    "more",
    "-d",
    '{"name":"x"}',
    "-m",
    '{"n":"{{.RequestNumber}}"}',
    "-x",
    "3s",
    "-n",
    "40",
    "--cpus",
    "1",
    "--skipFirst",
    "2",
    "h:1",
  ]);
  assertEquals(
    JSON.stringify(line.options),
    JSON.stringify({
      call: "helloworld.Greeter.SayHello",
      host: "h:1",
      proto: "protos/g.proto",
      "import-paths": ["protos", ".", "more"],
      insecure: true,
      "load-schedule": "const",
      "load-start": 0,
      "load-end": 0,
      "load-step": 0,
      "load-step-duration": 0,
      "load-max-duration": 0,
      concurrency: 50,
      "concurrency-schedule": "const",
      "concurrency-start": 0,
      "concurrency-end": 0,
      "concurrency-step": 1,
      "concurrency-step-duration": 0,
      "concurrency-max-duration": 0,
      // -x is the run's duration, and a duration's count Go's largest int32.
      total: 2147483647,
      connections: 1,
      duration: 3e9,
      timeout: 20e9,
      "dial-timeout": 10e9,
      data: { name: "x" },
      binary: false,
      metadata: { n: "{{.RequestNumber}}" },
      CPUs: 1,
      skipFirst: 2,
    }),
  );
});

/** The cases run against the greeter: one greeter for the file, each case a step of one test. */
Deno.test({
  name: "ghz command lines against @grpc/grpc-js's greeter",
  ignore: nodeGreeterSkip("ghz against the greeter") !== null,
  fn: (t) =>
    withNodeGreeter(async (port) => {
      for (const [name, fn] of GREETER_CASES) await t.step(name, () => fn(port));
    }),
});
