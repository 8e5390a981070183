import { deepStrictEqual as assertEquals, rejects } from "node:assert/strict";
import { parseRunArgs } from "./args.ts";
import { HelpRequested, UsageError } from "../usage_error.ts";
import { jsonFromChild } from "../../tests/helpers.ts";

Deno.test("run args: every flag, repeatable ones collected", async () => {
  const args = await parseRunArgs([
    "study.yaml",
    "--quick",
    "--out-dir=out/x",
    "--resume",
    "--only",
    "target=a,load=b",
    "--only",
    "target=c",
    "--set",
    "repeats=5",
    "--set",
    "loads.open.phases[1].rate=300",
    "--target",
    "mine=http://127.0.0.1:3000/app",
    "--summary",
    "s.md",
    "--junit",
    "j.xml",
    "--no-redact",
    "--strict",
  ]);
  assertEquals(args, {
    source: "study.yaml",
    quick: true,
    outDir: "out/x",
    resume: true,
    only: { target: ["a", "c"], load: ["b"] },
    set: ["repeats=5", "loads.open.phases[1].rate=300"],
    targets: { mine: "http://127.0.0.1:3000/app" },
    summaryFile: "s.md",
    junitFile: "j.xml",
    keepSecrets: true,
    long: false,
    strict: true,
  });
});

Deno.test("run args: defaults for a preset", async () => {
  assertEquals(await parseRunArgs(["preset:demo"]), {
    source: "preset:demo",
    quick: false,
    outDir: undefined,
    resume: false,
    long: false,
    only: undefined,
    set: [],
    targets: {},
    keepSecrets: false,
    strict: false,
  });
});

Deno.test("run args: problems are one UsageError line naming the flag", async () => {
  await rejects(parseRunArgs([]), /no experiment given/);
  await rejects(parseRunArgs(["a.yaml", "b.yaml"]), /one experiment at a time/);
  // k6's `run -` (the script on stdin) is refused before any load, not read as an experiment named "-".
  await rejects(parseRunArgs(["-", "-i", "1"]), /^UsageError: -: a script runs from a file, not stdin/);
  await rejects(
    parseRunArgs(["preset:demo", "extra"], "demo"),
    /^UsageError: unexpected argument "extra"; demo runs preset:demo/,
  );
  await rejects(parseRunArgs(["a.yaml", "--only", "variant=x"]), /--only "variant=x": write target=NAME/);
  await rejects(parseRunArgs(["a.yaml", "--set", "repeats"]), /--set "repeats": write PATH=VALUE/);
  await rejects(parseRunArgs(["a.yaml", "--target", "mine"]), /--target "mine": write NAME=URL/);
  await rejects(parseRunArgs(["a.yaml", "--out-dir"]), UsageError);
  await rejects(
    parseRunArgs(["a.yaml", "--max-memory-mb", "100"]),
    /--max-memory-mb 100: max memory must be >= 256 MB/,
  );
  await rejects(
    parseRunArgs(["a.yaml", "--max-memory-mb", "2GB"]),
    /--max-memory-mb "2GB": must be a whole number/,
  );
  await rejects(parseRunArgs(["a.yaml", "--bogus"]), UsageError);
  await rejects(parseRunArgs(["--help"]), HelpRequested);
});

Deno.test("run args: Locust's --tags and --exclude-tags take every value up to the next flag", async () => {
  const args = await parseRunArgs([
    "shop.py",
    "Buyer",
    "--tags",
    "read",
    "checkout",
    "-E",
    "slow",
    "x",
    "-u",
    "2",
  ]);
  assertEquals([args.source, args.scriptLoad?.locust?.users], ["shop.py", ["Buyer"]]);
  assertEquals([args.scriptLoad?.locust?.tags, args.scriptLoad?.locust?.excludeTags], [
    ["read", "checkout"],
    ["slow", "x"],
  ]);
});

Deno.test("run args: pyproject.toml's [tool.locust] and ./locust.conf, their lists never taking the file", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-locust-pyproject-" });
  Deno.writeTextFileSync(`${dir}/locust.conf`, "users = 6\ntags = [read, write]\nexit-code-on-error = 3\n");
  Deno.writeTextFileSync(
    `${dir}/pyproject.toml`,
    '[project]\nname = "shop"\n\n[tool.locust]\nlocustfile = "other.py"\nrun-time = "8s"\n' +
      'exclude-tags = ["admin"]\n\n[tool.other]\nusers = 99\n',
  );
  const cwd = Deno.cwd();
  Deno.chdir(dir);
  try {
    const args = await parseRunArgs(["shop.py", "--headless"]);
    assertEquals(args.source, "shop.py");
    const load = args.scriptLoad;
    assertEquals([load?.vus, load?.durationMs, load?.locust?.exitCodeOnError], [6, 8000, 3]);
    assertEquals([load?.locust?.tags, load?.locust?.excludeTags], [["read", "write"], ["admin"]]);
    // A flag of many values given with = ends there, as argparse's: the next argument is the locustfile.
    assertEquals((await parseRunArgs(["--tags=read", "shop.py"])).source, "shop.py");
  } finally {
    Deno.chdir(cwd);
  }
  await rejects(
    parseRunArgs(["-f", "users/", "-u", "2"]),
    (err: Error) => err instanceof UsageError && /-f users\/: give a locustfile/.test(err.message),
  );
  assertEquals((await parseRunArgs(["shop.py", "--json", "--json-file", "st"])).scriptLoad?.locust, {
    json: true,
    jsonFile: "st",
  });
});

Deno.test("run args: Locust's --csv-full-history is taken beside --csv", async () => {
  const args = await parseRunArgs(["shop.py", "--csv", "res", "--csv-full-history"]);
  assertEquals(args.scriptLoad?.locust, { csv: "res", csvFullHistory: true });
});

Deno.test("run args: a locustfile's settings come from --config (or ./locust.conf), then LOCUST_*, then flags", async () => {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-locust-conf-" });
  Deno.writeTextFileSync(
    `${dir}/team.conf`,
    "# the team's\n[locust]\nusers = 8\nspawn_rate = 4\nrun-time = 7s\nheadless = true\ntags = [read, write]\n",
  );
  // Parsed in a process of its own: the variables are that process's, not every parallel test file's.
  const parsed = await jsonFromChild(
    `import { parseRunArgs } from "${new URL("./args.ts", import.meta.url).href}";
const { scriptLoad: load } = await parseRunArgs(["shop.py", "--config", "${dir}/team.conf", "-u", "3"]);
console.log(JSON.stringify([load?.vus, load?.durationMs, load?.locust?.tags, load?.locust?.stopTimeoutMs]));`,
    { LOCUST_RUN_TIME: "9s", LOCUST_STOP_TIMEOUT: "2", LOCUST_NOT_A_FLAG: "1" },
  );
  assertEquals(parsed, [3, 9000, ["read", "write"], 2000]);
  await rejects(
    parseRunArgs(["shop.py", "--class-picker"]),
    (err: Error) =>
      err instanceof UsageError && /--class-picker: unknown flag; .*name the user classes/.test(err.message),
  );
});

Deno.test("run args: a locustfile's own options are taken however -f names it", async () => {
  const dir = Deno.makeTempDirSync();
  const file = `${dir}/shop.py`;
  Deno.writeTextFileSync(
    file,
    `from locust import HttpUser, task, events

@events.init_command_line_parser.add_listener
def options(parser):
    parser.add_argument("--region", type=str, default="eu")

class Shop(HttpUser):
    @task
    def browse(self):
        self.client.get("/")
`,
  );
  try {
    for (const named of [[file], ["-f", file], [`-f${file}`], [`--locustfile=${file}`]]) {
      assertEquals((await await parseRunArgs([...named, "--region", "us"])).scriptLoad?.locust?.options, {
        region: "us",
      });
    }
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("k6's outputs: -o is --out, experimental-prometheus-rw at k6's URL, the web dashboard ignored", async () => {
  const args = await parseRunArgs([
    ...["script.js", "-o", "json=points.ndjson", "--out", "web-dashboard"],
    ...["--out", "experimental-prometheus-rw"],
  ]);
  assertEquals(args.metricsOut?.map((o) => [o.kind, o.url]), [
    ["prometheus-remote-write", "http://localhost:9090/api/v1/write"],
  ]);
  await rejects(
    parseRunArgs(["a.yaml", "-o", "out/x"]),
    /^UsageError: -o out\/x: run writes its results to --out-dir/,
  );
});

Deno.test("k6's outputs of each sample are the script's; a metrics exporter alone gives no k6 flag", async () => {
  const outs = [
    "json=p.ndjson",
    "csv",
    "csv=fileName=p.csv,timeFormat=unix",
    "influxdb=http://127.0.0.1:8086/k6",
  ];
  const args = await parseRunArgs([
    "script.js",
    ...outs.flatMap((o) => ["--out", o]),
    "--out",
    "otlp=http://h:4318",
  ]);
  assertEquals(args.scriptLoad?.k6?.outs, outs);
  assertEquals(args.metricsOut?.map((o) => o.kind), ["otlp"]);
  assertEquals((await parseRunArgs(["script.ts", "--out", "otlp=http://h:4318"])).scriptLoad, undefined);
});
