/**
 * @module
 * What locustfiles real teams wrote (bench/locust_wild/) do under Locust, held for loadlab: the constructs
 * and flags of theirs that Locust runs and loadlab once refused or ran otherwise.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { existsSync } from "node:fs";
import { dirname } from "node:path";
import { withTarget } from "./helpers.ts";

const MAIN = new URL("../main.ts", import.meta.url).pathname;

/** `loadlab run` of `files` (locustfile.py's text, or each file by its path) in a folder of its own. */
async function run(
  files: string | Record<string, string>,
  url: string,
  args: string[],
  file = "locustfile.py",
) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-locust-wild-" });
  for (const [path, text] of Object.entries(typeof files === "string" ? { [file]: files } : files)) {
    Deno.mkdirSync(dirname(`${dir}/${path}`), { recursive: true });
    Deno.writeTextFileSync(`${dir}/${path}`, text);
  }
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN, "run", file, "-H", url, "--csv", "res", "--out-dir", "out", ...args],
    cwd: dir,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(90_000),
  }).output();
  const td = new TextDecoder();
  return { code: out.code, text: td.decode(out.stdout) + td.decode(out.stderr), dir };
}

/** Each name's request count in a `_stats.csv`. */
function counts(path: string): Record<string, number> {
  const rows = Deno.readTextFileSync(path).trim().split(/\r?\n/).slice(1).map((l) => l.split(","));
  return Object.fromEntries(rows.map((r) => [r[1], Number(r[2])]));
}

const LOGGED = `import logging
from locust import HttpUser, constant, task


class Logged(HttpUser):
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get("/json")
        logging.info("home fetched")
`;

Deno.test("--logfile takes the file's logging lines, as Locust's: its folder made, none on stderr", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(LOGGED, url, [
      "-u",
      "1",
      "-r",
      "1",
      "-t",
      "1s",
      "--logfile",
      "logs/run.log",
    ]);
    assertEquals(code, 0, text);
    ok(existsSync(`${dir}/logs/run.log`), text);
    ok(Deno.readTextFileSync(`${dir}/logs/run.log`).includes("INFO: home fetched"), text);
    ok(!text.includes("home fetched"), text);
  }));

const HOOKED = `from locust import HttpUser, constant, task
import locust.event

fetched = locust.event.EventHook()


def told(name, **kwargs):
    print(f"told {name}")


fetched.add_listener(told)


class Hooked(HttpUser):
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get("/json")
        fetched.fire(name="home")
`;

Deno.test("import locust.event binds locust, whose event.EventHook() makes an event, as Python's import", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(HOOKED, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`)["/json"];
    ok(sent >= 1, text);
    assertEquals(text.split("told home").length - 1, sent, text);
  }));

const FROM_ROOT = `from locust import HttpUser, constant, task
from common.paths import HOME


class Rooted(HttpUser):
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get(HOME)
`;

Deno.test("a module under the working folder imports, as Locust puts it on sys.path after the file's folder", () =>
  withTarget(async (url) => {
    const files = { "tests/load/locustfile.py": FROM_ROOT, "common/paths.py": 'HOME = "/json"\n' };
    const args = ["-u", "1", "-r", "1", "-t", "1s"];
    const { code, text, dir } = await run(files, url, args, "tests/load/locustfile.py");
    assertEquals(code, 0, text);
    ok(counts(`${dir}/res_stats.csv`)["/json"] >= 1, text);
  }));

const PLAIN = `from locust import HttpUser, constant, task


class Plain(HttpUser):
    wait_time = constant(0.2)

    @task
    def home(self):
        self.client.get("/json")
`;

Deno.test("--print-stats is accepted, as Locust's headless run prints its stats anyway", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(PLAIN, url, ["-u", "1", "-r", "1", "-t", "1s", "--print-stats"]);
    assertEquals(code, 0, text);
    ok(counts(`${dir}/res_stats.csv`)["/json"] >= 1, text);
  }));

const LINES = `import json
from locust import HttpUser, constant, task

with open("paths.jsonl") as f:
    paths = [json.loads(line)["path"] for line in f]


class Lines(HttpUser):
    wait_time = constant(0.2)

    @task
    def each(self):
        for path in paths:
            self.client.get(path)
`;

Deno.test("for line in a file walks its lines, as Python's file object iterates", () =>
  withTarget(async (url) => {
    const files = { "locustfile.py": LINES, "paths.jsonl": '{"path": "/json"}\n{"path": "/json?page=2"}\n' };
    const { code, text, dir } = await run(files, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`);
    ok(sent["/json"] >= 1 && sent["/json"] === sent["/json?page=2"], text);
  }));

const CLASS_SCOPE = `from dataclasses import dataclass, field
from locust import HttpUser, constant, task


@dataclass(frozen=True)
class Config:
    @dataclass(frozen=True)
    class Route:
        endpoint: str
        weight: int

    base = "/json"
    home: Route = field(default=Route(endpoint=base + "?page=1", weight=1))


config = Config()


class Scoped(HttpUser):
    wait_time = constant(0.2)

    @task(config.home.weight)
    def home(self):
        self.client.get(config.home.endpoint)
`;

Deno.test("a class body reads the names it bound above (a nested class, an attribute), as Python's class scope", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(CLASS_SCOPE, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    ok(counts(`${dir}/res_stats.csv`)["/json?page=1"] >= 1, text);
  }));

const DOTENV = `import os
from dotenv import load_dotenv
from locust import HttpUser, constant, task

load_dotenv()
PAGE = os.getenv("PAGE", "/missing")


class Configured(HttpUser):
    wait_time = constant(0.2)

    @task
    def page(self):
        self.client.get(PAGE)
`;

Deno.test("load_dotenv() sets the .env nearest the file that calls it, as python-dotenv's find_dotenv", () =>
  withTarget(async (url) => {
    const files = { "load/locustfile.py": DOTENV, "load/.env": 'export PAGE="/json"  # the page\n' };
    const args = ["-u", "1", "-r", "1", "-t", "1s"];
    const { code, text, dir } = await run(files, url, args, "load/locustfile.py");
    assertEquals(code, 0, text);
    ok(counts(`${dir}/res_stats.csv`)["/json"] >= 1, text);
  }));

Deno.test("--html, --csv and --json-file make their folders, as Locust's os.makedirs does", () =>
  withTarget(async (url) => {
    const args = [
      "-u",
      "1",
      "-r",
      "1",
      "-t",
      "1s",
      "--html",
      "reports/run.html",
      "--json-file",
      "stats/final",
    ];
    const { code, text, dir } = await run(PLAIN, url, [...args, "--csv", "csv/run"]);
    assertEquals(code, 0, text);
    for (const file of ["reports/run.html", "stats/final.json"]) ok(existsSync(`${dir}/${file}`), text);
    ok(counts(`${dir}/csv/run_stats.csv`)["/json"] >= 1, text);
  }));

Deno.test("locust.conf's expect-workers is accepted, as Locust reads it under --master only", () =>
  withTarget(async (url) => {
    const files = { "locustfile.py": PLAIN, "locust.conf": "expect-workers = 10\nusers = 1\n" };
    const { code, text, dir } = await run(files, url, ["-t", "1s"]);
    assertEquals(code, 0, text);
    ok(counts(`${dir}/res_stats.csv`)["/json"] >= 1, text);
  }));

const SHAPE = `from locust import LoadTestShape


class Short(LoadTestShape):
    def tick(self):
        return (2, 2) if self.get_run_time() < 2 else None
`;

const OTHER = PLAIN.replace("Plain", "Other").replace('"/json"', '"/"');

Deno.test("-f a.py,b.py and -f FOLDER run each file's users and shape, as Locust merges them", () =>
  withTarget(async (url) => {
    const files = { "locustfile.py": PLAIN, "shape.py": SHAPE, "other.py": OTHER };
    const listed = await run(files, url, [], "--locustfile=locustfile.py,shape.py");
    assertEquals(listed.code, 0, listed.text);
    assertEquals(Object.keys(counts(`${listed.dir}/res_stats.csv`)), ["/json", "Aggregated"], listed.text);
    // A folder's files but `_*` ones (this one is no Python), in name order, its subfolders' too (`a/`
    // first: each file a module of the folder given): both users, the shape.
    const folder = Object.fromEntries(
      Object.entries(files).map(([k, v]) => [k === "other.py" ? "users/a/other.py" : `users/${k}`, v]),
    );
    const walked = await run({ ...folder, "users/_notes.py": "not python" }, url, [], "--locustfile=users");
    assertEquals(walked.code, 0, walked.text);
    const sent = counts(`${walked.dir}/res_stats.csv`);
    ok(sent["/"] >= 1 && sent["/json"] >= 1, walked.text);
  }));

const UNDER_PATH = `from locust import FastHttpUser, HttpUser, constant, task


class Slow(HttpUser):
    wait_time = constant(0.2)

    @task
    def fib(self):
        self.client.get("/10")


class Fast(FastHttpUser):
    wait_time = constant(0.2)

    @task
    def fib(self):
        self.client.get("/12")
`;

Deno.test("a host with a path goes before each path, named as Locust's HttpSession and FastHttpSession do", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(UNDER_PATH, `${url}/fib`, ["-u", "2", "-r", "2", "-t", "1s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`);
    ok(sent["/fib/10"] >= 1 && sent["/12"] >= 1, text);
  }));

const CLASS_CODE = `import json
import locust.stats
import requests.exceptions
from locust import HttpUser, constant, task

locust.stats.CSV_STATS_INTERVAL_SEC = 2


class Cases(HttpUser):
    wait_time = constant(0.2)
    casos = []
    base = "/json"
    with open("cases.json") as json_file:
        data = json.load(json_file)
        for caso in data:
            casos.append(base + "?id=" + str(caso["id"]))
    unique = len(set(casos))

    @task
    def each(self):
        for path in self.casos[: self.unique]:
            try:
                self.client.get(path, name=path).raise_for_status()
            except requests.exceptions.HTTPError:
                raise RuntimeError("not found")
`;

Deno.test("a class body runs as code (with open, for) and locust.stats sets the CSV history's interval", () =>
  withTarget(async (url) => {
    const files = { "locustfile.py": CLASS_CODE, "cases.json": '[{"id": 1}, {"id": 2}, {"id": 2}]' };
    const { code, text, dir } = await run(files, url, ["-u", "1", "-r", "1", "-t", "5s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`);
    ok(sent["/json?id=1"] >= 1 && sent["/json?id=1"] === sent["/json?id=2"], text);
    const rows = Deno.readTextFileSync(`${dir}/res_stats_history.csv`).trim().split(/\r?\n/).slice(2);
    const times = rows.map((r) => Number(r.split(",")[0]));
    ok(times.length >= 1 && times.length <= 3, rows.join("\n"));
    times.slice(1).forEach((t, i) => assertEquals(t - times[i], 2, rows.join("\n")));
  }));

const PY2_SUPER = `import os
from pathlib import Path
from locust import HttpUser, TaskSet, constant, task


def load(name):
    with Path(os.path.dirname(__file__), name).open() as f:
        return [line.strip() for line in f]


class Browse(TaskSet):
    def __init__(self, parent):
        super(Browse, self).__init__(parent)
        self.paths = list(map(lambda word: "/json?q=" + word, load("words.txt")))
        more = (Path(__file__).parent / "more.txt").read_text().split("\\n")
        self.paths += list(filter(None, more))

    @task
    def each(self):
        for path in self.paths:
            self.client.get(path)


class Reader(HttpUser):
    wait_time = constant(0.2)
    tasks = [Browse]
`;

Deno.test("super(Cls, self), map, filter and pathlib.Path run, and a URL is quoted as requests quotes it", () =>
  withTarget(async (url) => {
    const files = { "locustfile.py": PY2_SUPER, "words.txt": "a b\ncé\n", "more.txt": "/json?page=2\n\n" };
    const { code, text, dir } = await run(files, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`);
    // Locust's names for the same file: the path requests sent, a space and a non-ASCII letter quoted.
    ok(sent["/json?q=a%20b"] >= 1, text);
    ok(
      sent["/json?q=a%20b"] === sent["/json?q=c%C3%A9"] && sent["/json?q=a%20b"] === sent["/json?page=2"],
      text,
    );
  }));

const SET_START_RAISES = `from locust import HttpUser, TaskSet, constant, task


class Browse(TaskSet):
    def on_start(self):
        self.client.get("/json?start=1")
        raise ValueError("no merchants")

    @task
    def listed(self):
        self.client.get("/json?listed=1")


class Shopper(HttpUser):
    wait_time = constant(0.2)
    tasks = [Browse]
`;

Deno.test("a task set whose on_start raises is left, the next turn entering it anew, as Locust's", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(SET_START_RAISES, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 1, text);
    const sent = counts(`${dir}/res_stats.csv`);
    ok(sent["/json?start=1"] >= 2 && sent["/json?listed=1"] === undefined, text);
  }));

const NONE_HEADER = `from locust import HttpUser, constant, task


class Typeless(HttpUser):
    wait_time = constant(0.2)

    def on_start(self):
        self.client.headers["Content-Type"] = "text/team"

    @task
    def echo(self):
        with self.client.post("/echo", data="x", headers={"Content-Type": None}, catch_response=True) as r:
            if r.headers.get("content-type") != "application/octet-stream":
                r.failure(f"sent {r.headers.get('content-type')}")
`;

Deno.test("a header given None is not sent, a session's one too, as requests drops it", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(NONE_HEADER, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const row = Deno.readTextFileSync(`${dir}/res_stats.csv`).split(/\r?\n/).find((l) => l.includes("/echo"));
    ok(Number(row?.split(",")[2]) >= 1 && row?.split(",")[3] === "0", text);
  }));

const NONE_PARAMS = `from locust import HttpUser, constant, task


class Listing(HttpUser):
    wait_time = constant(0.2)

    @task
    def pets(self):
        self.client.get("/json", params={"limit": None, "status": None})
        self.client.get("/json", params={"page": 2, "tag": None})
        self.client.post("/echo", data={"name": "rex", "tag": None})
`;

Deno.test("a query's or form's None values are dropped, named as Locust names what requests sent", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(NONE_PARAMS, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const sent = counts(`${dir}/res_stats.csv`);
    assertEquals(Object.keys(sent).sort(), ["/echo", "/json", "/json?page=2", "Aggregated"], text);
  }));

Deno.test("every file of the eleventh and twelfth hostile trials converts, each case's -f as given", async () => {
  const { convertLocustFile } = await import("../runner/script/locust/file.ts");
  for (const trial of ["11", "12"]) await convertEach(convertLocustFile, trial);
});

async function convertEach(convertLocustFile: (paths: string) => { users: unknown[] }, trial: string) {
  const corpus = new URL(`../bench/locust_hostile${trial}/`, import.meta.url).pathname;
  const cases = JSON.parse(await Deno.readTextFile(`${corpus}/cases.json`));
  for (const [name, c] of Object.entries(cases as Record<string, { cwd?: string; f?: string }>)) {
    if (name === "_about") continue;
    const dir = `${corpus}${c.cwd ?? ""}`;
    const files = (c.f ?? name).split(",").map((f) => `${dir}/${f}`);
    const paths = files.flatMap((f) =>
      f.endsWith(".py") ? [f] : [...Deno.readDirSync(f)].map((e) => `${f}/${e.name}`).sort()
    );
    const { users } = convertLocustFile(paths.join(","));
    ok(users.length >= 1, name);
  }
}

Deno.test("floats out of calls are named as Python writes them: print, f-strings, %, format, logging", () =>
  withTarget(async (url) => {
    const file = new URL("../bench/locust_hostile12/float_calls.py", import.meta.url).pathname;
    const { code, text, dir } = await run(Deno.readTextFileSync(file), url, [
      "-u",
      "1",
      "-r",
      "1",
      "-t",
      "1s",
    ]);
    assertEquals(code, 0, text);
    // What CPython 3.11 writes for each of the file's names.
    const python = [
      "sum 6.0 1.0 2.0 3.0",
      "math 2.0 3.0 2 8.0 3.14",
      "call 2.0 2.0 2.0 4.0",
      "spec    2.0 3.0  | 1e+20 3.0 float(5)=5.0",
      "pct 2.0 2.0 3   4.0",
      "fmt 1.0   2.0 4.0",
      "attr 0.0 0.0",
      "big inf inf -inf 1e-05 1e+20",
      "list 2.0 2.0 [1.0] [3.0]",
    ];
    const sent = counts(`${dir}/res_stats.csv`);
    assertEquals(python.filter((n) => !(sent[n] >= 1)), [], text);
    ok(text.includes("printed 3.0 1.0 2") && text.includes("took 2.0 then True"), text);
  }));

const LOWER_METHOD = `from locust import HttpUser, constant, task


class Lower(HttpUser):
    wait_time = constant(0.2)

    @task
    def lower(self):
        self.client.request("get", "/json", name="spelled")
        self.client.request("post", "/echo", data="x")
`;

Deno.test("a method given in lower case is sent as GET and named as the file spells it, as Locust's row", () =>
  withTarget(async (url) => {
    const { code, text, dir } = await run(LOWER_METHOD, url, ["-u", "1", "-r", "1", "-t", "1s"]);
    assertEquals(code, 0, text);
    const rows = Deno.readTextFileSync(`${dir}/res_stats.csv`).trim().split(/\r?\n/).slice(1, -1);
    assertEquals(rows.map((r) => r.split(",").slice(0, 2).join(" ")), ["post /echo", "get spelled"], text);
  }));
