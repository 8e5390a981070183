import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import { dirname } from "node:path";
import { convertLocust, LocustConvertError } from "./convert.ts";
import { method } from "./py.ts";
import { LoadTestShape } from "./runtime.ts";

const HEAD = "from locust import HttpUser, task, between\n";

/** The problems of converting `text`, or [] when it converts. */
function problems(text: string): string[] {
  try {
    convertLocust(text, "locustfile.py");
    return [];
  } catch (err) {
    if (!(err instanceof LocustConvertError)) throw err;
    return err.problems;
  }
}

Deno.test("a locustfile's statements keep their lines in the session module", () => {
  const { code, users } = convertLocust(
    HEAD + `
class Shop(HttpUser):
    host = "http://127.0.0.1:9"
    wait_time = between(1, 2)

    @task(3)
    def browse(self):
        self.client.post("/cart", json={"id": 1}, name="cart")
`,
    "locustfile.py",
  );
  const lines = code.split("\n");
  ok(lines[8].includes("self.client.post"), lines[8]);
  ok(lines[7].includes("browse"), lines[7]);
  assertEquals(users, [{ name: "Shop", host: "http://127.0.0.1:9" }]);
});

Deno.test("what the subset does not hold is refused at its line, each place named", () => {
  assertEquals(
    problems(
      HEAD + `import requests
class U(HttpUser):
    @task
    def t(self):
        yield 1
`,
    ),
    [
      "locustfile.py:2: import requests: a client outside the user: send with self.client, whose requests " +
      "count and are timed (docs/LOCUST.md)",
      "locustfile.py:5: a generator that is a method or sends, not a @contextmanager: make it a task",
    ],
  );
  // What Locust's examples do that loadlab cannot run: each named with what to write instead.
  const refused = problems(
    HEAD +
      "from locust import User, events\nimport gevent.lock\nfrom pyquery import PyQuery\nimport flask\n" +
      "from locust.env import Environment\nclass Dns(User):\n    @task\n    def t(self):\n" +
      "        events.test_start.fire(environment=None)\n" +
      "        self.environment.stats.clear_all()\n" +
      "        self.environment.events.request.add_listener(print)\n" +
      "        self.environment.runner.send_message('users', [])\nimport threading\n",
  );
  assertEquals(refused.map((p) => p.split(":").slice(0, 3).join(":")), [
    "locustfile.py:3: import gevent.lock",
    "locustfile.py:4: from pyquery import",
    "locustfile.py:5: import flask",
    "locustfile.py:6: from locust.env import",
    "locustfile.py:10: events.test_start.fire",
    "locustfile.py:11: self.environment.stats",
    "locustfile.py:12: a listener a user adds",
    "locustfile.py:13: send_message",
    "locustfile.py:14: import threading",
  ]);
  const instead = [
    "-r equal to -u",
    "re.search",
    "no web UI",
    "give Locust's flags",
    "loadlab fires it",
    "events",
    "at the top level",
    "test_start",
  ];
  instead.forEach((what, at) => ok(refused[at].includes(what), refused[at]));
  ok(refused[8].includes("a task"), refused[8]);
  ok(problems(HEAD + "from locust import runners\n")[0].includes("Locust as a library"));
  // A pytest locustfile (no user class): a test function of a fixture Locust has not is refused.
  assertEquals(problems("import time\n\ndef test_stuff(session, db):\n    session.get('/')\n"), [
    "locustfile.py:3: a pytest fixture other than Locust's session or fastsession: make the test's " +
    "work a task of an HttpUser (docs/LOCUST.md)",
  ]);
  assertEquals(problems(HEAD + "def test_stuff(session):\n    pass\nclass U(HttpUser):\n    pass\n"), []);
  assertEquals(
    problems(HEAD + "class U(HttpUser):\n    @property\n    def busy(self):\n        self.client.get('/')\n"),
    ["locustfile.py:4: a @property that sends: make it a method"],
  );
  assertEquals(problems(HEAD + "def page(sku):\n    return hex(ord(sku))\n"), [
    "locustfile.py:3: hex(): a Python builtin outside the subset (docs/LOCUST.md lists those it has)",
  ]);
  assertEquals(problems("def timed(user):\n    user.client.get('/')\n    yield\n"), [
    "locustfile.py:1: a generator that is a method or sends, not a @contextmanager: make it a task",
  ]);
  ok(
    problems(
      HEAD + "class U(HttpUser):\n    def t(self):\n        self.environment.runner.stats.reset_all()\n",
    )[0]
      .startsWith(
        "locustfile.py:4: self.environment.runner.stats: a user's runner has quit() and user_count",
      ),
  );
  // A name Locust's runner lacks too converts: as on Locust, it raises only if its line runs.
  const lazy = "class U(HttpUser):\n    def on_start(self):\n        if not self.host:\n" +
    "            print(self.environment.runner.user_id)\n";
  assertEquals(problems(HEAD + lazy), []);
  throws(
    () => method(new LoadTestShape().runner, "user_id"),
    /AttributeError: 'LocalRunner' object has no attribute/,
  );
  ok(
    problems(
      HEAD + "class U(HttpUser):\n    @task\n    def t(self):\n        self.client.get('/', cert='c.pem')\n",
    )[0]
      .startsWith("locustfile.py:5: self.client's cert=: the subset sends name, headers, "),
  );
  assertEquals(problems(HEAD + "x = )\ny = 1\n"), [
    "locustfile.py:2: invalid syntax (Python's parser stops here)",
  ]);
  throws(() => convertLocust("def f(:\n", "l.py"), LocustConvertError);
});

Deno.test("indentation that compares differently with a tab as 8 columns and as 1 is Python's TabError", () => {
  const TAB = "inconsistent use of tabs and spaces in indentation (Python's TabError): indent with spaces";
  const body = (lines: string[]) => problems(HEAD + "def f(x):\n" + lines.join("\n") + "\n");
  // Deeper by 8 columns, not by 1; as deep by 8, not by 1; back to a block's 8, not its 1; a decorated def.
  assertEquals(body(["        if x:", "\t    x = 1"]), [`locustfile.py:4: ${TAB}`]);
  assertEquals(body(["        x = 1", "\tx = 2"]), [`locustfile.py:4: ${TAB}`]);
  assertEquals(body(["\tif x:", "\t    x = 1", "        x = 2"]), [`locustfile.py:5: ${TAB}`]);
  assertEquals(body(["    @staticmethod", "\tdef g():", "\t\tpass"]), [`locustfile.py:4: ${TAB}`]);
  // Tabs alone, or tabs then spaces alike on each line, are consistent; brackets and strings not compared.
  assertEquals(body(["\tif x:", "\t\tx = 1", "\tx = [1,", "  \t 2]", '\ty = """', ' \t"""']), []);
  assertEquals(body(["\t  if x:", "\t    x = 1", "\t  x = 2; y = 3"]), []);
});

Deno.test("super() calls the base class's method; __init__ is Python's constructor, run as a user starts", () => {
  const { code } = convertLocust(
    HEAD + "class A(HttpUser):\n    def __init__(self, env):\n        super().__init__(env)\n" +
      "    def on_start(self):\n        super().on_start()\n",
    "l.py",
  );
  const lines = code.split("\n");
  ok(lines[2].includes("async __init___py(") && lines[3].includes("(await super.__init___py(env))"), code);
  ok(lines[5].includes("(await super.on_start())"), code);
});

Deno.test("an abstract user class is a base, not a user to run", () => {
  const { users } = convertLocust(
    HEAD + "class Base(HttpUser):\n    abstract = True\n\nclass Child(Base):\n    @task\n    def t(self):\n" +
      "        pass\n",
    "l.py",
  );
  assertEquals(users, [{ name: "Base", abstract: true }, { name: "Child" }]);
});

Deno.test("a listener of an event loadlab does not fire is refused at its line, naming the event", () => {
  const [problem] = problems(
    HEAD + "from locust import events\n@events.user_error.add_listener\ndef f(**kw):\n    pass\n",
  );
  ok(
    problem.startsWith("locustfile.py:3: events.user_error: loadlab takes listeners of test_start, "),
    problem,
  );
  assertEquals(
    problems(HEAD + "from locust import events\n@events.quitting.add_listener\ndef f(**kw):\n    pass\n"),
    [],
  );
});

Deno.test("a def inside a def binds its local as Python does, not a second declaration of it", () => {
  const { code } = convertLocust(
    "def outer():\n    def inner():\n        return 1\n    return inner()\n",
    "l.py",
  );
  const lines = code.split("\n");
  ok(/let __t, __e, inner;/.test(lines[0]) && lines[1].includes("inner = function inner("), code);
});

Deno.test("an assignment expression (:=) binds its name in the enclosing function", () => {
  const { code } = convertLocust("def f(xs):\n    if (n := len(xs)) > 1:\n        return n\n", "l.py");
  ok(/let __t, __e, n;/.test(code) && code.includes("((n = __py.builtins.len(xs)))"), code);
});

Deno.test("not binds the operand to its right alone, as Python's: not a and b or c is ((not a) and b) or c", () => {
  const { code } = convertLocust("def f(a, b, c):\n    return not a and b or c\n", "l.py");
  const js = /return (.*);/.exec(code)![1];
  const f = new Function("__py", "a", "b", "c", `let __t; return ${js};`);
  const __py = { bool: (x: unknown) => Boolean(x) };
  assertEquals([f(__py, 0, 1, 0), f(__py, 1, 1, 0), f(__py, 1, 0, 7), f(__py, 0, 0, 7)], [1, 0, 7, 7]);
});

Deno.test("a case pattern outside the subset (a sequence, a class) is refused at its line", () => {
  const text = "def f(x):\n    match x:\n        case [a, b]:\n            return a\n        case 1 | 2:\n" +
    "            return 0\n";
  assertEquals(problems(text), ["locustfile.py:3: a case pattern of the form sequence pattern"]);
});

Deno.test("a module function defined again (a `_` per listener) assigns the name, as Python rebinds it", () => {
  const { code } = convertLocust("def _():\n    return 1\ndef _():\n    return 2\n", "l.py");
  const lines = code.split("\n");
  ok(lines[0].includes("; function _(") && lines[2].startsWith("_ = function _("), code);
});

Deno.test("comments between a call's arguments, an operator's operands or items, and type hints convert", () => {
  const { code } = convertLocust(
    HEAD + `from typing import Optional
from collections.abc import Generator
PAGES = [
    "/",  # home
    # the API
    "/json",
]


class U(HttpUser):
    @task
    def t(self, at: Optional[int] = None) -> None:
        self.client.get(
            PAGES[0],  # first
            name={"a": 1,  # one
                  **{"b": 2}}["a"],
        )
        x = (1  # one
             + 2)
        print([p for p in PAGES  # each
               if p and  # both
               x])
`,
    "locustfile.py",
  );
  ok(code.includes('PAGES = ["/", "/json"]'), code);
  ok(code.includes("x = (__py.add(1, 2))"), code);
});

Deno.test("of a module, what the subset lacks is refused at its line: gevent's greenlets, not its sleep, os.path", () => {
  assertEquals(
    problems(
      HEAD + `import gevent, os.path
from random import shuffle, betavariate
class U(HttpUser):
    @task
    def t(self):
        gevent.sleep(len(os.path.basename(__file__)))
        gevent.spawn(self.t)
`,
    ),
    [
      "locustfile.py:3: from random import betavariate: is outside the subset loadlab converts (docs/LOCUST.md)",
      "locustfile.py:8: gevent.spawn: greenlets of its own (gevent): loadlab runs each user's tasks itself; " +
      "put the work in a task, a user class of its own, or a test_start listener (docs/LOCUST.md)",
    ],
  );
});

Deno.test("Locust's web UI extensions convert, inert headless; a request listener that steers is refused", () => {
  assertEquals(
    problems(
      HEAD + `from flask import Blueprint, request
from locust import events
extend = Blueprint("extend", "extend")
@extend.route("/extend")
def page():
    return request.args
@events.init.add_listener
def on_init(environment, **kw):
    if environment.web_ui:
        environment.web_ui.app.register_blueprint(extend)
@events.reset_stats.add_listener
def on_reset():
    pass
`,
    ),
    [],
  );
  assertEquals(
    problems(
      HEAD + `from locust import events
from locust.exception import RescheduleTask
@events.request.add_listener
def on_request(exception, **kwargs):
    if exception:
        raise RescheduleTask()
`,
    ),
    [
      "locustfile.py:4: a request listener that raises to steer its user: loadlab runs request listeners in " +
      "the command's process; check the response in the task (catch_response) and return",
    ],
  );
});

Deno.test("a class body's statements ended by ';' (tasks = [Set];) are its attributes, as Python reads them", () => {
  const text = "from locust import User, TaskSet, task\nclass S(TaskSet):\n    @task\n    def t(self):\n" +
    "        pass\nclass U(User):\n    tasks = [S]; weight = 2;\n";
  assertEquals(problems(text), []);
  ok(convertLocust(text, "l.py").code.includes(`__L.attr(this, "weight", 2)`));
});

/** A folder of `files` (path -> text), its locustfile.py converted; the conversion or its problems. */
function convertFolder(files: Record<string, string>) {
  const dir = Deno.makeTempDirSync({ prefix: "loadlab-locust-modules-" });
  try {
    for (const [path, text] of Object.entries(files)) {
      Deno.mkdirSync(dirname(`${dir}/${path}`), { recursive: true });
      Deno.writeTextFileSync(`${dir}/${path}`, text);
    }
    return { ...convertLocust(files["locustfile.py"], "locustfile.py", dir), problems: [], dir };
  } catch (err) {
    if (!(err instanceof LocustConvertError)) throw err;
    return {
      code: "",
      modules: [],
      users: [],
      problems: err.problems.map((p) => p.replaceAll(dir, "DIR")),
      dir,
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

Deno.test("the modules of a locustfile's folder it imports convert as it does, each once", () => {
  const { code, modules, users, problems } = convertFolder({
    "locustfile.py": "from locust import task\nfrom common.auth import login\nimport helpers\n" +
      "from tasks import UserTasks\nfrom common.users import WebUser\n" +
      "class Shopper(helpers.ApiBase):\n    tasks = [UserTasks]\n    def on_start(self):\n" +
      "        login(self)\n        helpers.Cart(self)\n",
    "common/auth.py": "import random\ndef login(user):\n    user.client.post('/login')\n",
    "common/users.py": "from locust import HttpUser, task\nfrom .auth import login\n" +
      "class WebUser(HttpUser):\n    host = 'http://127.0.0.1:9'\n    @task\n    def t(self):\n" +
      "        login(self)\n",
    "helpers.py": "from locust import HttpUser\nclass ApiBase(HttpUser):\n    abstract = True\n" +
      "class Cart:\n    def __init__(self, user):\n        self.user = user\n",
    "tasks/__init__.py":
      "from locust import TaskSet, task\nfrom . import browse as pages\nfrom .browse import browse\n" +
      "class UserTasks(TaskSet):\n    @task\n    def view(self):\n        browse(self.client)\n",
    "tasks/browse.py": "def browse(client):\n    client.get('/items')\n",
  });
  assertEquals(problems, []);
  // common/auth.py imported twice (by the locustfile and by common/users.py), converted once.
  assertEquals(modules.map((m) => m.path).sort(), [
    "common/auth.py",
    "common/users.py",
    "helpers.py",
    "tasks/__init__.py",
    "tasks/browse.py",
  ]);
  // A user class it imports is one of its users, as Locust collects them from the locustfile's names.
  assertEquals(users, [{ name: "WebUser", host: "http://127.0.0.1:9" }, { name: "Shopper" }]);
  const lines = code.split("\n");
  ok(lines[1].includes("let login = __m"), lines[1]);
  ok(lines[8].includes("(await login(self))"), lines[8]);
  ok(lines[9].includes("new helpers.Cart(self)"), lines[9]);
  ok(code.includes(`from "./common/auth.py.js"`), code);
  const browse = modules.find((m) => m.path === "tasks/__init__.py")!.code;
  ok(browse.includes("(await browse(self.client))"), browse);
});

Deno.test("a module of the folder is refused at its own line; a cycle, a module not found, by name", () => {
  const { problems } = convertFolder({
    "locustfile.py": "import helpers\nfrom a import x\nfrom missing.mod import y\nfrom .tasks import T\n" +
      "import helpers\n",
    "helpers.py": "import requests\n",
    "a.py": "from b import y\nx = 1\n",
    "b.py": "import a\ny = 2\n",
    "pkg/__init__.py": "from ..up import z\n",
  });
  assertEquals(problems.map((p) => p.split(": ").slice(0, 2).join(": ")), [
    "locustfile.py:1: import helpers",
    "locustfile.py:2: from a import x",
    "locustfile.py:3: from missing.mod import",
    "locustfile.py:4: from .tasks import T",
    "locustfile.py:5: import helpers",
    // helpers.py's own problem, once though it is imported twice.
    "helpers.py:1: import requests",
    "a.py:1: from b import y",
    "b.py:1: import a",
  ]);
  ok(problems[7].includes("an import cycle (a.py imports b.py imports a.py)"), problems[7]);
  ok(problems[2].includes("(no DIR/missing/mod.py nor DIR/missing/mod/__init__.py)"), problems[2]);
  ok(problems[3].includes("write from tasks import"), problems[3]);
  // A library of another protocol is no module of the folder: named as one loadlab cannot run.
  const other = convertFolder({
    "locustfile.py": "import xmlrpc.client\nimport pkg.mod\n",
    "pkg/mod.py": "",
  });
  ok(other.problems[0].includes("xmlrpc.client is not one of the modules loadlab runs"), other.problems[0]);
  ok(other.problems[1].includes("write from pkg import mod"), other.problems[1]);
  const above = convertFolder({ "locustfile.py": "import pkg\n", "pkg/__init__.py": "from ..up import z\n" });
  ok(
    above.problems[1].startsWith(
      "pkg/__init__.py:1: from ..up import z: reaches above the locustfile's folder",
    ),
  );
});

Deno.test("a module's class imported under the module's name (from datetime import datetime) is the class", () => {
  const uses = (imports: string, call: string) =>
    problems(
      `${imports}\n${HEAD}\nclass U(HttpUser):\n    @task\n    def t(self):\n        print(${call})\n`,
    );
  assertEquals(uses("from datetime import datetime", "datetime.utcnow().isoformat()"), []);
  assertEquals(uses("import datetime", "datetime.nosuch()"), [
    "locustfile.py:7: datetime.nosuch: not in the subset (docs/LOCUST.md)",
  ]);
});

Deno.test("a def with *args inside a def awaits when it calls what it was given, as a decorator's wrapper", () => {
  const { code } = convertLocust(
    "def joiner(sep):\n    def join(*parts):\n        return sep.join(parts)\n    return join\n" +
      "def timed(fn):\n    def wrapper(self, *a):\n        return fn(self, *a)\n    return wrapper\n",
    "l.py",
  );
  // A helper's `join` stays sync, so a sync caller gets its string, not a promise.
  ok(code.includes("join = function join(") && code.includes("wrapper = async function wrapper("), code);
});

Deno.test("a queue converts as Python's; a sync caller of its get() is refused at its line", () => {
  const { code } = convertLocust(
    HEAD + "import queue\nclass U(HttpUser):\n    def on_start(self):\n" +
      "        U.q = queue.Queue(); self.q = queue.Queue()\n",
    "l.py",
  );
  ok(code.split("\n")[4].includes("U.q = queue.Queue(); self.q = queue.Queue();"), code);
  assertEquals(
    problems(
      "import queue\nQ = queue.Queue()\nclass Box:\n    def __init__(self):\n        self.x = Q.get()\n",
    ),
    ["locustfile.py:5: a request, sleep or queue read outside a task, on_start or a function tasks call"],
  );
});

Deno.test("a function that makes lambdas which send is no sender itself: a class body may call it", () => {
  const text = HEAD + "def make():\n    return [lambda u, p=p: u.client.get(p) for p in ('/', '/a')]\n" +
    "class U(HttpUser):\n    tasks = make()\n";
  assertEquals(problems(text), []);
  ok(convertLocust(text, "l.py").code.includes("function make("), "make is not async");
});

Deno.test("defaults are made once, as the def runs; with's __exit__ is given the error's class first", () => {
  const { code } = convertLocust(
    "def remember(x, seen=[]):\n    seen.append(x)\nclass Step:\n    def __exit__(self, kind, e, tb):\n" +
      "        return kind is KeyError\nwith Step():\n    pass\n",
    "l.py",
  );
  ok(code.split("\n")[0].includes("const __d0 = [[]]; function remember("), code);
  ok(code.includes("__exit__(__py.builtins.type(__w), __w, null)"), code);
});

Deno.test("a module imported twice, whole and by a submodule, is bound twice as Python rebinds it", () => {
  const { code } = convertLocust(
    [
      "import locust",
      "import locust.event",
      "import os",
      "import os.path",
      "from locust import HttpUser, task",
      "hook = locust.event.EventHook()",
      "class U(HttpUser):",
      "    @task",
      "    def t(self):",
      "        import json",
      "        import json",
      '        self.client.get("/" + os.path.join("a", json.dumps(1)))',
      "",
    ].join("\n"),
    "locustfile.py",
  );
  assertEquals(code.match(/\blet (locust|os|json) =/g), ["let locust =", "let os =", "let json ="]);
  ok(/\blocust = \{ \.\.\.__L, event: __L \}/.test(code), code);
});

Deno.test("import a.b binds a with its module b; import a.b as x binds a.b, as Python's import", () => {
  const { code } = convertLocust(
    [
      "import requests.exceptions",
      "import os.path as osp",
      "import locust.stats",
      "import locust.exception as errors",
      "from os.path import join",
      "",
    ].join("\n"),
    "locustfile.py",
  );
  ok(code.includes('let requests = { ...__M.requests, exceptions: __M["requests.exceptions"] };'), code);
  ok(code.includes('let osp = __M["os.path"];'), code);
  ok(code.includes("let locust = { ...__L, stats: __L.statsModule };"), code);
  ok(code.includes("let errors = __L;"), code);
  ok(code.includes('let join = __M["os.path"].join;'), code);
});

Deno.test("a class body's block runs as code, but a def in one is refused at its line", () => {
  const body =
    "class U(HttpUser):\n    paths = []\n    for i in range(2):\n        paths.append(f'/json?i={i}')\n";
  assertEquals(problems(HEAD + body), []);
  assertEquals(problems(HEAD + body + "    if paths:\n        def t(self):\n            pass\n"), [
    "locustfile.py:6: a def or class in a class body's if statement: define it in the body itself",
  ]);
});

Deno.test("a class body reads its methods and nested classes by name, as tasks = {browse: 2, Inner: 1}", () => {
  const { code } = convertLocust(
    HEAD +
      "class U(HttpUser):\n    def browse(self):\n        pass\n    class Inner(TaskSet):\n        pass\n" +
      "    tasks = {browse: 2, Inner: 1}\n",
    "locustfile.py",
  );
  ok(code.includes("__L.taskDict([[this.prototype.browse, 2], [this.Inner, 1]])"), code);
});
