/**
 * @module
 * A locustfile made a loadlab session module: parsed with `@lezer/python`, then written as JavaScript
 * statement by statement, each on its Python line (so a stack's line is the locustfile's), on py.ts and
 * runtime.ts. A module of its folder it imports is converted the same way, once; a construct outside the
 * subset is a `LocustConvertError` naming each `file:line: why`.
 */
import { parser } from "@lezer/python";
import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { builtins, METHOD_NAMES } from "./py.ts";
import { MODULES } from "./py_modules.ts";
import { LOCUST_EVENTS, REQUEST_KEYS } from "./runtime.ts";

type SyntaxNode = ReturnType<typeof parser.parse>["topNode"];

/** A locustfile that cannot be converted; `problems` are `file:line: why`. */
export class LocustConvertError extends Error {
  override name = "LocustConvertError";
  constructor(readonly problems: string[]) {
    super(`cannot run this locustfile: ${problems.slice(0, 20).join("; ")}`);
  }
}

/** A user class as the file spells it. */
interface LocustUserInfo {
  name: string;
  host?: string;
  abstract?: boolean;
}

export interface LocustConversion {
  code: string;
  users: LocustUserInfo[];
  shape?: string;
  /** The options it adds (`parser.add_argument("--region", ...)`: `region`); `switches` take no value. */
  options: string[];
  switches: string[];
  modules: Array<{ path: string; code: string }>;
}

const PY_URL = new URL("./py.ts", import.meta.url).href;
const LOCUST_URL = new URL("./runtime.ts", import.meta.url).href;
const MODULES_URL = new URL("./py_modules.ts", import.meta.url).href;

/** What `from locust import ...` (and its submodules) may name. */
const LOCUST_NAMES = new Set(
  ("User HttpUser FastHttpUser TaskSet SequentialTaskSet task tag between constant constant_pacing " +
    "constant_throughput events StopUser RescheduleTask InterruptTaskSet run_single_user LoadTestShape " +
    "MarkovTaskSet transition transitions MasterRunner WorkerRunner LocalRunner HttpSession " +
    "RestResponseContextManager EventHook log").split(" "),
);
const LOCUST_MODULES = new Set(
  ("locust locust.contrib.fasthttp locust.exception locust.user.wait_time locust.runners locust.clients " +
    "locust.event locust.stats").split(" "),
);
const PY_MODULES = new Set(Object.keys(MODULES));
/** A plain class's methods Python calls where nothing waits: run synchronously. */
const SYNC = ["__init__", "__str__", "__repr__", "__getattr__", "__enter__", "__exit__"];
const NOT_HTTP = "a client of another protocol, on a library loadlab cannot run: send with self.client, " +
  "or time work the file can run and report it with events.request.fire";
const FIRED = "an event Locust fires itself: loadlab fires it, and takes a file's own fire of request only";
const MESSAGES = "messages between Locust's master and its workers: loadlab runs one process, without " +
  "workers; set what users share in a test_start listener (docs/LOCUST.md)";
const PYTEST = "a pytest fixture other than Locust's session or fastsession: make the test's work a task " +
  "of an HttpUser (docs/LOCUST.md)";
const LIBRARY = "Locust as a library (its Environment, runners, stats, messages): loadlab runs the users " +
  "itself; give Locust's flags to loadlab run, and read the run's numbers in a test_stop listener";
/** What a module a locustfile imports is to Locust and what to write instead, by its first two names. */
const INSTEAD: Record<string, string> = {
  gevent: "greenlets of its own (gevent): loadlab runs each user's tasks itself; put the work in a task, " +
    "a user class of its own, or a test_start listener",
  "gevent.lock": "a lock between users, whose release reaches no other worker isolate's: to start " +
    "every user's tasks together, spawn them at once (-r equal to -u)",
  threading: "threads or their locks: loadlab runs each user's tasks itself; put the work in a task",
  pyquery: "an HTML parser: read what the test needs from r.text with re (re.search, re.findall)",
  bs4: "an HTML parser: read what the test needs from r.text with re (re.search, re.findall)",
  flask: "routes added to Locust's web UI: loadlab has no web UI; serve what the test needs from its target",
  requests: "a client outside the user: send with self.client, whose requests count and are timed",
  "locust.env": LIBRARY,
  "locust.log": LIBRARY,
  "locust.contrib": NOT_HTTP,
  locust_plugins: "locust-plugins: loadlab runs Locust's own users and flags (-t rather than -i)",
};
const BUILTINS = new Set(Object.keys(builtins));
/** Python's builtins a locustfile may call that the subset does not hold: refused at their line. */
const PY_BUILTINS_OUTSIDE = ("hex oct bin divmod pow format iter callable vars hash bytes " +
  "bytearray frozenset object input exit dir eval exec issubclass").split(" ");
/** What Locust's runner has beyond quit() and user_count: refused before the load; any other name raises. */
const RUNNER_HAS = ("client_id environment errors exceptions greenlet log_exception register_message " +
  "send_message shape_greenlet spawn_users start state stats stop stop_users target_user_count user_classes " +
  "user_classes_count user_greenlets worker_count worker_index").split(" ");
const EVENTS_HELD = `loadlab takes listeners of ${LOCUST_EVENTS.join(", ")} (report_to_master and ` +
  "worker_report never fire: one process; reset_stats neither: Locust's web UI fires it)";
/** The nodes an assignment's target names are in (not `self.x`, whose `self` is no local). */
const TARGETS = ["VariableName", "TupleExpression", "ArrayExpression", "ParenthesizedExpression"];
const LOCUST_CLASSES = new Set(["StopUser", "RescheduleTask", "InterruptTaskSet", "EventHook"]);
const JS_RESERVED = new Set(
  ("arguments await break case catch class const continue debugger default delete do else enum export " +
    "extends false function if implements import in instanceof interface let new null package private " +
    "protected public return static super switch this throw true try typeof var void while with yield eval")
    .split(" "),
);

/**
 * `import locust.a.b` binds `locust`, whose `a.b` is a module: each holds the runtime's names but `stats`,
 * which holds the constants a file may set. `names`: the dotted name, or its last for `import ... as x`.
 */
const submodules = ([name, ...rest]: string[]): string => {
  const own = name === "stats" ? "__L.statsModule" : "__L";
  return rest.length === 0 ? own : `{ ...${own}, ${rest[0]}: ${submodules(rest)} }`;
};
/** A module of MODULES by its dotted name. */
const pyModule = (name: string) => /^\w+$/.test(name) ? `__M.${name}` : `__M[${JSON.stringify(name)}]`;

/** An import's refusal: `why` after the import as spelled (`whole`), else after `from MODULE import`. */
type Refuse = (why: string, whole?: boolean) => never;

class Refusal extends Error {
  constructor(readonly node: SyntaxNode, why: string) {
    super(why);
  }
}

/** Python's calls whose result is a float whatever their arguments (`math.sqrt`, `time.time`). */
const FLOAT_CALL = new RegExp(
  "^(float|math\\.(?!(ceil|floor|trunc|gcd|factorial|isqrt|comb|perm|prod|is\\w+)$)\\w+|" +
    "statistics\\.(fmean|p?stdev)|time\\.(time|perf_counter|monotonic|process_time)|" +
    "random\\.(random|uniform|gauss|\\w+variate|triangular)|.+\\.total_seconds)$",
);
/** Python's calls whose result is a float (or a list of them) when an argument holds one (`sum(xs)`). */
const FLOAT_OF_ARGS = /^(abs|sum|min|max|pow|list|tuple|sorted|statistics\.(mean|median))$/;
/** Python's and Locust's values that are floats (`math.pi`, a stats entry's `fail_ratio`). */
const FLOAT_VALUE = new RegExp(
  "^(math\\.(pi|e|tau|inf|nan)|.+\\.(avg_response_time|fail_ratio|total_rps|current_rps|" +
    "total_fail_per_sec|current_fail_per_sec|avg_content_length|spawn_rate))$",
);

interface Scope {
  locals: Set<string>;
  globals: Set<string>;
  async: boolean;
  /** The parameter bound to `this` in a method (`self`). */
  self?: string;
  /** The parameters of a def, which a def inside it may call (a decorator's `fn`). */
  params?: string[];
  /** For a bare `raise`. */
  caught?: string;
  /** Its names last given a float or a list of floats (`x = 4 / 2`): their text keeps `.0`, as Python's. */
  floats?: Set<string>;
  /** The function it is the body of: a float it returns makes its calls floats. */
  fn?: string;
  /** A class body's names, as it reads them (`this.casos`, a method's `this.prototype.browse`). */
  cls?: Map<string, string>;
  /** Whether `self` is a `@classmethod`'s class: called, it makes an object. */
  classSelf?: boolean;
}

/** Converts locustfile `source` to a session module; `dir` is its folder (Python's `sys.path[0]`). */
export function convertLocust(source: string, file: string, dir = "."): LocustConversion {
  // Converted again while a pass learns a function or an attribute that gives a float, read before its def.
  let folder: Folder, conversion: ReturnType<Converter["run"]>, known = new Set<string>(), size: number;
  do {
    size = known.size;
    folder = new Folder(dir, [file], new Set(known));
    conversion = new Converter(source, file, folder, null).run();
    known = folder.floats;
  } while (known.size > size);
  return {
    ...conversion,
    modules: [...folder.converted].flatMap(([path, m]) => m ? [{ path, code: m.code }] : []),
  };
}

/** The prefix of a module's path found in the working folder, not the locustfile's. */
const CWD = "__cwd__/";

/** The locustfile's folder: its modules by their path in it, each converted once (null: refused). */
class Folder {
  readonly converted = new Map<string, { kinds: Converter; code: string } | null>();
  /** `converting`: the files being converted, importer first (one imported again closes a cycle). */
  /** `floats`: the functions (`avg`, `.mean` of a method) and attributes (`.total`) found to give floats. */
  constructor(readonly dir: string, readonly converting: string[], readonly floats = new Set<string>()) {}

  /** Module `dotted`'s file: as Locust's `sys.path`, in the folder, else under `CWD/` in the working one. */
  fileOf(dotted: string): string | undefined {
    const path = dotted.replaceAll(".", "/"), files = [`${path}.py`, `${path}/__init__.py`];
    return [...files, ...files.map((f) => CWD + f)].find((f) => existsSync(this.pathOf(f)));
  }

  pathOf(file: string): string {
    return file.startsWith(CWD) ? resolve(file.slice(CWD.length)) : join(this.dir, file);
  }
}

class Converter {
  private out: string[] = [""];
  private problems: Array<{ line: number; why: string }> = [];
  private moduleNames = new Set<string>();
  private classes = new Set<string>();
  /** Classes defined in a class body: made with `new` where that body's scope reads them. */
  private nestedClasses = new Set<string>();
  /** Classes of no Locust (nor exception) base: made by a call, their `__init__` run there, not awaited. */
  private plain = new Set<string>();
  private asyncFunctions = new Set<string>();
  private syncFunctions = new Set<string>();
  /** A plain class's static and class methods that wait on nothing (`Endpoint.of`), by `Class.name`. */
  private syncMethods = new Set<string>();
  private users: LocustUserInfo[] = [];
  /** Every user class it knows, by the name it is read by (`Base`, `common.Base`), its own and imported. */
  private userClasses = new Map<string, LocustUserInfo>();
  private shapes: string[] = [];
  /** The names a queue is given (`q` of `self.q = queue.Queue()`). */
  private queues = new Set<string>();
  /** Names declared on the module's first line: a method's defaults, made as its class body runs. */
  private hoisted: string[] = [];
  private tasksets = new Set<string>();
  private defined = new Set<string>();
  private options: string[] = [];
  private switches: string[] = [];
  private readonly moduleScope: Scope = { locals: new Set(), globals: new Set(), async: false };
  private scope = this.moduleScope;
  private uid = 0;
  /** Whether a generator sends: its `with` blocks' enter and exit are awaited. */
  private asyncWith = false;
  /** The modules of the folder it imports, as `import * as __mN from "./PATH.js"`: N by path. */
  private imports = new Map<string, number>();
  /** Its top level's imported names: exported as its own are, as Python's module has them. */
  private importedNames = new Set<string>();
  /** Each scope's names its imports declared: a later import of one (`import a.b`) rebinds it. */
  private importsIn = new WeakMap<Scope, Set<string>>();
  private defs: string[] = [];
  private moduleProblems: string[] = [];
  /** Python's modules and their names by the name the file reads them by (`m` of `import math as m`). */
  private pyNames = new Map<string, string>();

  /** `dotted`: its module's dotted name (`common.auth`), null for the locustfile. */
  constructor(
    private readonly src: string,
    private readonly file: string,
    private readonly folder: Folder,
    private readonly dotted: string | null,
  ) {}

  run(): LocustConversion {
    const top = parser.parse(this.src).topNode;
    this.findSyntaxErrors(top);
    this.findTabError(top);
    if (this.problems.length > 0) throw this.error();
    this.planModule(top);
    const defined = [...this.classes, ...this.asyncFunctions, ...this.syncFunctions];
    const lets = [...this.scope.locals].filter((n) => !defined.includes(n));
    this.write(`let __t, __e${lets.map((n) => `, ${this.jsName(n)}`).join("")}; `);
    for (const stmt of children(top)) this.statement(stmt);
    // Without a user class, Locust runs each pytest function (`def test_x(session)`) as a user of its own.
    const users = this.users.map((u) => this.jsName(u.name));
    for (const s of this.users.length > 0 || this.dotted !== null ? [] : children(top)) {
      const [, name, given] = /^def (test_\w*)\s*\(([^)]*)\)/.exec(this.text(s)) ?? [];
      if (name === undefined) continue;
      if (!/^\s*(fast)?session\s*,?\s*$/.test(given)) {
        this.problems.push({ line: this.lineOf(s.from), why: PYTEST });
      }
      this.users.push({ name });
      users.push(`${name}: __L.pytestUser(${this.jsName(name)}, ${given.includes("fast")})`);
    }
    if (this.problems.length > 0 || this.moduleProblems.length > 0) throw this.error();
    if (this.hoisted.length > 0) this.out[0] = `let ${this.hoisted.join(", ")}; ${this.out[0]}`;
    const vars = lets.map((n) => this.jsName(n)).join(", ");
    const [py, locust, modules] = [PY_URL, LOCUST_URL, MODULES_URL].map((u) => JSON.stringify(u));
    // The folder's modules it imports, from where its own conversion is written (`common/auth.py.js`).
    const up = relative(join(this.file, ".."), ".") || ".";
    const own = [...this.imports].map(([path, n]) => ` import * as __m${n} from "${up}/${path}.js";`);
    this.out.push(
      `import * as __py from ${py}; import * as __L from ${locust}; ` +
        `import { MODULES as __M, annotate as __annotate, dotenvAt as __dotenv } from ${modules};` +
        own.join(""),
      // A module exports its top level's names, as `import` and `from ... import` read them.
      this.dotted !== null
        ? `export { ${[...this.names].map((n) => `${this.jsName(n)} as ${n}`).join(", ")} };`
        : `const __f = __L.locustfile({ ${users.join(", ")} }, ` +
          `${this.shapes.length > 0 ? this.jsName(this.shapes[0]) : "undefined"}, () => ({ ${vars} }), ` +
          `(__v) => ({ ${lets.map((n) => `${this.jsName(n)} = ${this.jsName(n)}`).join(", ")} } = __v)); ` +
          // Aliased: a locustfile's own `start`, `stop` or `setup` is a name of its module's, as in Python.
          "export default __f.default; const { start: __start, stop: __stop, setup: __setup } = __f; " +
          "export { __start as start, __stop as stop, __setup as setup };",
    );
    return {
      code: this.out.join("\n") + "\n",
      users: this.users,
      options: this.options,
      switches: this.switches,
      modules: [],
      ...(this.shapes.length > 0 ? { shape: this.shapes[0] } : {}),
    };
  }

  private error(): LocustConvertError {
    const sorted = this.problems.sort((a, b) => a.line - b.line);
    return new LocustConvertError([
      ...sorted.map((p) => `${this.file}:${p.line}: ${p.why}`),
      ...this.moduleProblems,
    ]);
  }

  private lineOf(pos: number): number {
    return this.src.slice(0, pos).split("\n").length;
  }

  private refuse(node: SyntaxNode, why: string): never {
    throw new Refusal(node, why);
  }

  private text(node: SyntaxNode): string {
    return this.src.slice(node.from, node.to);
  }

  private findSyntaxErrors(node: SyntaxNode): void {
    let at = -1;
    // The parser marks a bare `yield` (a `@contextmanager`'s) with an error node of its own.
    some(node, (n) => n.type.isError && n.parent?.name !== "YieldStatement" && (at = n.from) >= 0);
    if (at >= 0) {
      this.problems.push({ line: this.lineOf(at), why: "invalid syntax (Python's parser stops here)" });
    }
  }

  /**
   * Python's TabError, as its tokenizer finds it: a statement's indentation that compares with its block's
   * differently when a tab is 8 columns and when it is 1 (lines in brackets and strings are not compared).
   */
  private findTabError(top: SyntaxNode): void {
    const starts: number[] = [];
    some(top, (n) => {
      if (n.name === "Body" || n.name === "Script" || n.name === "DecoratedStatement") {
        starts.push(...children(n).filter((c) => c.name !== "Comment").map((c) => c.from));
      }
      return false;
    });
    const stack = [[0, 0]];
    for (const from of starts.sort((a, b) => a - b)) {
      const lead = this.src.slice(this.src.lastIndexOf("\n", from - 1) + 1, from);
      if (!/^[ \t]*$/.test(lead)) continue; // after `;` or `:` on its line
      let col = 0;
      for (const ch of lead) col = ch === "\t" ? (Math.floor(col / 8) + 1) * 8 : col + 1;
      const alt = lead.length, [indent, altIndent] = stack.at(-1)!;
      if (col > indent && alt > altIndent) stack.push([col, alt]);
      else {
        while (col < stack.at(-1)![0]) stack.pop();
        if (col <= indent && (col !== stack.at(-1)![0] || alt === stack.at(-1)![1])) continue;
        const why =
          "inconsistent use of tabs and spaces in indentation (Python's TabError): indent with spaces";
        return void this.problems.push({ line: this.lineOf(from), why });
      }
    }
  }

  // ---- output, each statement on its Python line ----

  private write(text: string): void {
    this.out[this.out.length - 1] += text;
  }

  private at(node: SyntaxNode): void {
    const line = this.lineOf(node.from);
    while (this.out.length < line) this.out.push("");
  }

  // ---- what the module defines, before any statement is written ----

  private planModule(top: SyntaxNode): void {
    // The folder's modules it imports, first: what their names are is known before its own are planned.
    for (const stmt of children(top).filter((s) => s.name === "ImportStatement")) {
      try {
        this.importStatement(stmt);
      } catch (err) {
        if (!(err instanceof Refusal)) throw err; // refused again where it is written
      }
    }
    this.importsIn.delete(this.moduleScope); // declared again where they are written
    const functions = new Map<string, SyntaxNode>();
    for (const stmt of children(top)) {
      const def = stmt.name !== "DecoratedStatement"
        ? stmt
        : stmt.getChild("FunctionDefinition") ?? stmt.getChild("ClassDefinition");
      const name = def?.getChild("VariableName"), text = name ? this.text(name) : "";
      if (name && def?.name === "FunctionDefinition") functions.set(text, def), this.defs.push(text);
      else if (name && def?.name === "ClassDefinition") this.classes.add(text), this.defs.push(text);
      else this.collectAssigned(stmt, this.scope.locals);
    }
    // A name (`q`, `self.q`, `Users.q`) given a `queue.Queue()` anywhere: its `get()` may wait.
    some(top, (n) => {
      const [target, , value] = n.name === "AssignStatement" ? children(n) : [];
      return this.makesQueue(value) && !this.queues.add(/\w+$/.exec(this.text(target))![0]);
    });
    // A module function awaits when it sends (a pytest fixture's `session` first) or calls one that does.
    const sends = new Set(this.asyncFunctions);
    for (let grew = true; grew;) {
      grew = false;
      for (const [name, def] of functions) {
        if (sends.has(name)) continue;
        if (
          /^def \w+\s*\(\s*(fast)?session\b/.test(this.text(def)) ||
          // A lambda's request is the lambda's own (async itself), not its maker's.
          some(
            def,
            (n) => n.name === "PropertyName" && this.text(n) === "client" || this.sends(n, sends),
            "LambdaExpression",
          )
        ) {
          sends.add(name), grew = true;
        }
      }
    }
    for (const [f, def] of functions) {
      (sends.has(f) && !isGenerator(def) ? this.asyncFunctions : this.syncFunctions).add(f);
    }
    this.asyncWith = some(top, (n) => n.name === "FunctionDefinition" && this.sendingGenerator(n));
    [...this.scope.locals, ...this.classes, ...functions.keys()].forEach((n) => this.moduleNames.add(n));
  }

  /** Names a statement assigns (targets, `for`, `except as`, `with as`, nested defs), not inside defs. */
  private collectAssigned(stmt: SyntaxNode, into: Set<string>): void {
    if (!["FunctionDefinition", "ClassDefinition", "DecoratedStatement"].includes(stmt.name)) {
      some(stmt, (n) => n.name === "NamedExpression" && !into.add(this.text(n.firstChild!)));
    }
    const targetNames = (n: SyntaxNode) => TARGETS.includes(n.name) && this.targetNames(n, into);
    switch (stmt.name) {
      case "AssignStatement":
      case "UpdateStatement":
      case "ForStatement": {
        // `a = b = 1`: every name before the last `=`; `for a, b in`: before `in`.
        const op = children(stmt).findLast((c) => ["AssignOp", "UpdateOp", "in"].includes(c.name));
        for (const c of children(stmt)) if (op && c.from < op.from) targetNames(c);
        if (stmt.name !== "ForStatement") return;
        break;
      }
      case "TryStatement":
      case "WithStatement":
        for (const c of children(stmt)) if (c.name === "as" && c.nextSibling) targetNames(c.nextSibling);
        break;
      case "DecoratedStatement":
      case "FunctionDefinition": {
        const name = (stmt.getChild("FunctionDefinition") ?? stmt).getChild("VariableName");
        if (name) into.add(this.text(name));
        return;
      }
      case "ClassDefinition":
        return;
      case "StatementGroup":
        for (const c of children(stmt)) this.collectAssigned(c, into);
        return;
      case "MatchStatement":
        for (const c of stmt.getChild("MatchBody")!.getChildren("MatchClause")) {
          some(c, (p) => p.name === "CapturePattern" && !into.add(this.text(p)));
          this.collectAssigned(c, into);
        }
        return;
    }
    for (const body of children(stmt).filter((c) => c.name === "Body")) {
      for (const s of children(body)) this.collectAssigned(s, into);
    }
  }

  // ---- statements ----

  private statement(stmt: SyntaxNode, inClass?: string): void {
    if (stmt.name === ":" || stmt.name === "newline") return;
    this.at(stmt);
    try {
      this.write(inClass === undefined ? this.stmt(stmt) : this.classMember(stmt, inClass));
    } catch (err) {
      if (!(err instanceof Refusal)) throw err;
      this.problems.push({ line: this.lineOf(err.node.from), why: err.message });
    }
  }

  private body(node: SyntaxNode | null): void {
    for (const s of node === null ? [] : children(node)) this.statement(s);
  }

  /** A block: `{` here (and `first` in it), its statements on their lines, `}` after the last. */
  private block(body: SyntaxNode | null, head = "", first = ""): string {
    this.write(`${head}{ ${first}`);
    this.body(body);
    return " }";
  }

  private stmt(n: SyntaxNode): string {
    const write = this.STATEMENTS[n.name];
    return write === undefined ? this.refuse(n, `${describe(n.name)} ${OUTSIDE}`) : write(n);
  }

  /** Each statement node the subset holds, written as JavaScript on its line. */
  private readonly STATEMENTS: Record<string, (n: SyntaxNode) => string> = {
    ExpressionStatement: (n) => isDocstring(n) ? "" : `${this.expr(n.firstChild!)};`,
    PassStatement: () => ";",
    // `a = 1; b = 2`: each statement in turn, on their one line.
    StatementGroup: (n) => children(n).filter((c) => c.name !== ";").map((c) => this.stmt(c)).join(" "),
    YieldStatement: (n) => {
      const given = exprChildren(n).length > 1 && !n.lastChild!.type.isError;
      const value = given ? this.expr(n.lastChild!) : "null";
      return n.getChild("from") === null ? `yield ${value};` : `yield* __py.iter(${value});`;
    },
    BreakStatement: () => "break;",
    ContinueStatement: () => "continue;",
    ReturnStatement: (n) => {
      const values = exprChildren(n);
      if (values.length === 0) return "return;";
      if (this.scope.fn && values.length === 1 && this.isFloat(values[0])) this.floatName(n, true);
      return `return ${values.length === 1 ? this.expr(values[0]) : this.tupleOf(values)};`;
    },
    AssignStatement: (n) => this.assign(n),
    UpdateStatement: (n) => this.update(n),
    IfStatement: (n) => this.ifStatement(n),
    MatchStatement: (n) => this.matchStatement(n),
    ForStatement: (n) => this.forStatement(n),
    WhileStatement: (n) => {
      if (n.getChild("else")) {
        this.refuse(n, "while ... else: write the else part after the loop with a flag");
      }
      return this.block(n.getChild("Body"), `while (__py.bool(${this.expr(exprChildren(n)[0])})) `);
    },
    TryStatement: (n) => this.tryStatement(n),
    RaiseStatement: (n) => this.raise(n),
    AssertStatement: (n) => {
      const [cond, message] = exprChildren(n);
      const text = message ? `__py.str(${this.expr(message)})` : '""';
      return `if (!__py.bool(${this.expr(cond)})) throw new __py.PyError("AssertionError", ${text});`;
    },
    DeleteStatement: (n) => exprChildren(n).map((t) => this.deleteTarget(t)).join(" "),
    // `global` and `nonlocal`: the name is not the function's own, so the JavaScript closure's is assigned.
    ScopeStatement: (n) => {
      for (const name of n.getChildren("VariableName")) this.scope.globals.add(this.text(name));
      return "";
    },
    WithStatement: (n) => this.withStatement(n),
    ImportStatement: (n) => this.importStatement(n),
    FunctionDefinition: (n) => this.functionDefinition(n, []),
    DecoratedStatement: (n) => this.decorated(n),
    ClassDefinition: (n) => this.classDefinition(n, []),
  };

  private assign(n: SyntaxNode): string {
    const parts = children(n);
    if (parts.some((c) => c.name === "TypeDef")) {
      // `x: int = 1`: the annotation is not run.
      const target = parts[0];
      const value = parts.find((c, i) => i > 0 && c.name !== "TypeDef" && c.name !== "AssignOp");
      return value ? `${this.assignTo([target], this.expr(value))}` : "";
    }
    const groups: SyntaxNode[][] = [[]];
    for (const c of parts) {
      if (c.name === "AssignOp") groups.push([]);
      else if (c.name !== ",") groups[groups.length - 1].push(c);
    }
    const values = groups.pop()!;
    const value = values.length === 1 ? this.expr(values[0]) : this.tupleOf(values);
    if (groups.length === 1 && groups[0].length === 1) this.floatName(groups[0][0], this.isFloat(values[0]));
    if (groups.length === 1) return this.assignTo(groups[0], value);
    const tmp = `__v${this.uid++}`;
    return `{ const ${tmp} = ${value}; ${groups.map((g) => this.assignTo(g, tmp)).join(" ")} }`;
  }

  private makesQueue(n: SyntaxNode | undefined): boolean {
    return n?.name === "CallExpression" && /^(queue\.)?(Simple)?Queue$/.test(this.text(n.firstChild!));
  }

  /** `targets = value` for one target or a tuple of them. */
  private assignTo(targets: SyntaxNode[], value: string): string {
    const flat =
      targets.length === 1 && ["TupleExpression", "ParenthesizedExpression"].includes(targets[0].name)
        ? exprChildren(targets[0])
        : targets;
    if (flat.length === 1 && targets[0].name !== "TupleExpression") return `${this.store(flat[0], value)};`;
    const tmp = `__u${this.uid++}`, star = flat.findIndex((t) => t.name === "*");
    const named = flat.filter((t) => t.name !== "*");
    const each = named.map((t, i) => `${this.store(t, `${tmp}[${i}]`)};`).join(" ");
    return `{ const ${tmp} = __py.unpack(${value}, ${named.length}${star < 0 ? "" : `, ${star}`}); ${each} }`;
  }

  private store(target: SyntaxNode, value: string): string {
    if (target.name === "VariableName" && this.scope.cls?.has(this.text(target))) {
      return `__L.attr(this, ${JSON.stringify(this.text(target))}, ${value})`;
    }
    if (target.name === "VariableName") return `${this.name(target)} = ${value}`;
    if (target.name === "MemberExpression") {
      const [obj, ...rest] = children(target);
      if (rest[0]?.name === ".") return `${this.expr(obj)}.${this.text(rest[1])} = ${value}`;
      const key = this.subscript(target);
      if (key.slice) this.refuse(target, "assigning to a slice: build the list anew");
      return `__py.setitem(${this.expr(obj)}, ${key.text}, ${value})`;
    }
    if (target.name === "TupleExpression" || target.name === "ParenthesizedExpression") {
      const text = this.assignTo([target], value);
      return text.endsWith(";") ? text.slice(0, -1) : text;
    }
    return this.refuse(target, `cannot assign to ${describe(target.name)}`);
  }

  private update(n: SyntaxNode): string {
    const [target, op, value] = children(n);
    const o = this.text(op).slice(0, -1);
    this.floatName(target, o === "/" || this.isFloat(target) || this.isFloat(value));
    return `${this.store(target, this.binary(o, this.expr(target), this.expr(value), op))};`;
  }

  private deleteTarget(t: SyntaxNode): string {
    if (t.name === "MemberExpression" && t.getChild("[")) {
      const key = this.subscript(t);
      if (key.slice) this.refuse(t, "del of a slice");
      return `__py.delitem(${this.expr(t.firstChild!)}, ${key.text});`;
    }
    if (t.name === "MemberExpression") return `delete ${this.expr(t)};`;
    if (t.name === "VariableName") return `${this.name(t)} = undefined;`;
    return this.refuse(t, `del of ${describe(t.name)}`);
  }

  /** `match x:` as an if chain: cases of literals, dotted values, `|` of them and `_`, an `if` guard each. */
  private matchStatement(n: SyntaxNode): string {
    const m = `__m${this.uid++}`;
    let close = `{ const ${m} = ${this.expr(children(n)[1])}; `;
    for (const clause of n.getChild("MatchBody")!.getChildren("MatchClause")) {
      const [, pattern, guard] = children(clause);
      const given = guard.name === "Guard" ? ` && __py.bool(${this.expr(children(guard)[1])})` : "";
      close = this.block(clause.getChild("Body"), `${close}if (${this.pattern(pattern, m)}${given}) `);
      close += " else ";
    }
    return `${close}{} }`;
  }

  private pattern(p: SyntaxNode, m: string): string {
    const parts = children(p), text = this.text(p);
    if (p.name === "OrPattern") {
      return `(${parts.filter((c) => c.name !== "LogicOp").map((c) => this.pattern(c, m)).join(" || ")})`;
    }
    if (p.name === "CapturePattern") return text === "_" ? "true" : `((${this.name(parts[0])} = ${m}), true)`;
    if (p.name === "AttributePattern") {
      return `__py.eq(${m}, ${this.name(parts[0])}${text.slice(parts[0].to - p.from)})`;
    }
    if (p.name !== "LiteralPattern") return this.refuse(p, `a case pattern of the form ${describe(p.name)}`);
    // A literal is written as the expression it is (None, True, a string, a number); `-1` as spelled.
    return `__py.eq(${m}, ${parts.length === 1 ? this.expr(parts[0]) : text})`;
  }

  private ifStatement(n: SyntaxNode): string {
    const parts = children(n);
    // `if __name__ == "__main__":` runs only under python itself.
    if (this.text(parts[1]).replaceAll(" ", "").replaceAll("'", '"') === '__name__=="__main__"') return "";
    let close = "";
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i].name;
      if (p === "else") close = this.block(parts[++i], `${close} else `);
      else if (p === "if" || p === "elif") {
        const cond = this.expr(parts[++i]);
        close = this.block(parts[++i], `${close}${p === "elif" ? " else " : ""}if (__py.bool(${cond})) `);
      }
    }
    return close;
  }

  private forStatement(n: SyntaxNode): string {
    const parts = children(n);
    if (n.getChild("else")) this.refuse(n, "for ... else: write the else part after the loop with a flag");
    const inAt = parts.findIndex((c) => c.name === "in");
    const targets = parts.slice(1, inAt).filter((c) => c.name !== ",");
    const item = `__i${this.uid++}`;
    const head = `for (const ${item} of __py.iter(${this.expr(parts[inAt + 1])})) `;
    return this.block(n.getChild("Body"), head, `${this.assignTo(targets, item)} `);
  }

  private tryStatement(n: SyntaxNode): string {
    const parts = children(n);
    // `else` runs when the body raised nothing, outside its handlers, before `finally`.
    const done = parts.some((p) => p.name === "else") ? `__ok${this.uid++}` : null;
    if (done !== null) this.write(`{ let ${done} = false; try { `);
    let close = this.block(parts[1], "try ");
    if (done !== null) close = ` ${done} = true;${close}`;
    let i = 2;
    let handlers = 0;
    const caught = `__e${this.uid++}`;
    while (i < parts.length && parts[i].name === "except") {
      let types: SyntaxNode | null = null, as: SyntaxNode | null = null;
      i++;
      if (parts[i].name !== "Body") types = parts[i++];
      if (parts[i]?.name === "as") as = parts[i + 1], i += 2;
      const body = parts[i++];
      const cond = types === null ? "true" : `__py.matches(${caught}, ${this.expr(types)})`;
      const bind = as === null ? "" : `${this.name(as)} = ${caught}; `;
      this.write(`${close}${handlers++ === 0 ? ` catch (${caught}) { ` : " else "}if (${cond}) { ${bind}`);
      const saved = this.scope.caught;
      this.scope.caught = caught;
      this.body(body);
      this.scope.caught = saved;
      close = " }";
    }
    if (handlers > 0) close += ` else throw ${caught}; }`;
    if (parts[i]?.name === "else") {
      close = this.block(parts[i + 1], `${close} if (${done}) `) + " }";
      i += 2;
      if (parts[i]?.name !== "finally") return `${close} finally {} }`;
    }
    if (parts[i]?.name === "finally") close = this.block(parts[i + 1], `${close} finally `);
    return done === null ? close : `${close} }`;
  }

  private raise(n: SyntaxNode): string {
    const [what, from] = exprChildren(n);
    if (what === undefined) {
      if (this.scope.caught === undefined) this.refuse(n, "a bare raise outside except");
      return `throw ${this.scope.caught};`;
    }
    return `throw __py.raised(${this.expr(what)}${from === undefined ? "" : `, ${this.expr(from)}`});`;
  }

  private withStatement(n: SyntaxNode): string {
    const parts = children(n);
    const asAt = parts.findIndex((c) => c.name === "as");
    if (parts.some((c) => c.name === ",")) this.refuse(n, "with of several items: nest them");
    const cm = `__c${this.uid++}`, err = `__x${this.uid++}`;
    const w = this.asyncWith && this.scope.async ? "await " : "";
    const enter = `(${w}${cm}.__enter__())`;
    const bind = asAt < 0 ? `${enter}; ` : `${this.store(parts[asAt + 1], enter)}; `;
    this.write(`{ const ${cm} = ${this.expr(parts[1])}; let ${err} = null; try { ${bind}`);
    this.body(n.getChild("Body"));
    // `__exit__(type, value, traceback)`: the error's class and the error.
    return ` } catch (__w) { ${err} = __w; ` +
      `if (!(${w}${cm}.__exit__(__py.builtins.type(__w), __w, null))) throw __w; } finally { ` +
      `if (${err} === null) ${w}${cm}.__exit__(null, null, null); } }`;
  }

  /** `import m [as x]` and `from m import a [as b]`: each name a const of Locust's runtime or of MODULES. */
  private importStatement(n: SyntaxNode): string {
    const parts = children(n).filter((c) => ![",", "(", ")"].includes(c.name));
    const importAt = parts.findIndex((c) => c.name === "import");
    const from = parts[0].name === "from" ? parts.slice(1, importAt).map((c) => this.text(c)).join("") : null;
    // Python 3's own behaviour already; type hints, which the conversion leaves out.
    if (from === "__future__" || from === "typing" || from === "collections.abc") return "";
    const out: string[] = [];
    for (let i = from === null ? 1 : importAt + 1; i < parts.length; i++) {
      let name = this.text(parts[i]);
      while (from === null && parts[i + 1]?.name === ".") name += `.${this.text(parts[i + 2])}`, i += 2;
      const [top, sub] = name.split("."), dotted = from === null && sub !== undefined, module = from ?? name;
      let local = dotted ? top : name;
      if (parts[i + 1]?.name === "as") local = this.text(parts[i + 2]), i += 2;
      const spelled = from === null ? `import ${name}` : `from ${module} import ${name}`;
      const refuse: Refuse = (why, whole = true) =>
        this.refuse(n, `${whole || from === null ? spelled : `from ${module} import`}: ${why}`);
      if (name === "*") refuse("name what the file uses");
      let value: string;
      if (LOCUST_MODULES.has(module)) {
        if (from !== null && !LOCUST_NAMES.has(name)) {
          const why = /runners|stats/.test(`${module}.${name}`) ? LIBRARY : "not in the subset";
          refuse(`${why} (docs/LOCUST.md)`);
        }
        value = from === null ? submodules(name.split(".").slice(local === top ? 0 : -1)) : `__L.${name}`;
      } else if (module === "flask" && from !== null) {
        value = "__L.inert"; // Flask's names serve Locust's web UI, which a headless run has not.
      } else if (PY_MODULES.has(module)) {
        if (from !== null && !(name in MODULES[module])) refuse(OUTSIDE);
        this.pyNames.set(local, from !== null ? `${module}.${name}` : dotted && local === top ? top : name);
        // `import a.b` binds `a`, whose `b` is its module; `import a.b as x`, `a.b`. python-dotenv's `.env`
        // is found from the folder of the file that calls it.
        const of = module === "dotenv"
          ? `__dotenv(${JSON.stringify(dirname(this.folder.pathOf(this.file)))})`
          : `__M[${JSON.stringify(module)}]`;
        value = from !== null
          ? `${of}.${name}`
          : dotted && local === top
          ? `{ ...${pyModule(top)}, ${sub}: ${pyModule(name)} }`
          : pyModule(name);
      } else {
        const why = INSTEAD[module.split(".").slice(0, 2).join(".")] ?? INSTEAD[module.split(".")[0]];
        if (why !== undefined) refuse(`${why} (docs/LOCUST.md)`, false);
        if (dotted && local === top && this.folder.fileOf(name)) refuse(`write from ${top} import ${sub}`);
        value = this.localImport(n, refuse, module, from === null ? null : name, local);
      }
      const declared = this.importsIn.get(this.scope) ?? new Set<string>();
      this.importsIn.set(this.scope, declared);
      out.push(`${declared.has(local) ? "" : "let "}${this.jsName(local)} = ${value};`);
      declared.add(local);
      this.moduleNames.add(local);
      if (n.parent?.name === "Script") this.importedNames.add(local);
    }
    return out.join(" ");
  }

  /** `name` (or, null, the module itself) of `module` of the locustfile's folder, its names' kinds known. */
  private localImport(n: SyntaxNode, refuse: Refuse, module: string, name: string | null, local: string) {
    const dotted = this.absolute(refuse, module), sub = `${dotted}.${name}`;
    const file = this.folder.fileOf(dotted);
    // A package's module that imports a module of its package (`from . import sub`) finds it, as Python's.
    const half = file !== undefined && this.folder.converting.includes(file) && name !== null &&
      this.folder.fileOf(sub);
    const found = file && !half ? this.moduleOf(refuse, dotted) : undefined;
    // As Python: a name its package's `__init__.py` lacks is a module of the package (`from tasks import a`).
    if (name !== null && !found?.names.has(name) && this.folder.fileOf(sub)) {
      return this.bound(this.moduleOf(refuse, sub), local);
    }
    if (!found) {
      const path = join(this.folder.dir, dotted.replaceAll(".", "/")), names = [...PY_MODULES].join(", ");
      return refuse(
        `${dotted} is not one of the modules loadlab runs (${names}) ` +
          `nor of the locustfile's folder (no ${path}.py nor ${path}/__init__.py)`,
        false,
      );
    }
    if (name === null) return this.bound(found, local);
    if (!found.names.has(name)) refuse(`${found.file} has no ${name} (an ImportError)`);
    this.adoptName(found, name, local, n.parent?.name === "Script");
    return `__m${this.imports.get(found.file)}.${name}`;
  }

  /** `from .x import` (in a package's module): the module's dotted name from the folder's top. */
  private absolute(refuse: Refuse, module: string): string {
    const rest = module.replace(/^\.+/, ""), level = module.length - rest.length;
    if (level === 0) return module;
    if (this.dotted === null) {
      refuse(`the locustfile is no package's module (an ImportError): write from ${rest} import`);
    }
    const pkg = this.dotted.split(".").slice(0, this.file.endsWith("/__init__.py") ? undefined : -1);
    if (level > pkg.length) {
      refuse("reaches above the locustfile's folder (an ImportError): move the module into it");
    }
    return [...pkg.slice(0, pkg.length - level + 1), rest].filter((p) => p !== "").join(".");
  }

  /** Module `dotted` of the folder, converted once (its package's `__init__.py` first) and imported here. */
  private moduleOf(refuse: Refuse, dotted: string): Converter {
    const { converted, converting } = this.folder,
      pkg = dotted.slice(0, Math.max(0, dotted.lastIndexOf(".")));
    // Its package's `__init__.py` runs first, unless it is what imports it (then half run, as Python's).
    const init = pkg === "" ? undefined : this.folder.fileOf(pkg);
    if (init !== undefined && !converting.includes(init)) this.moduleOf(refuse, pkg);
    const file = this.folder.fileOf(dotted)!;
    if (converting.includes(file)) {
      const cycle = [...converting.slice(converting.indexOf(file)), file].join(" imports ");
      refuse(`an import cycle (${cycle}): move what both need into a module of its own`);
    }
    if (!converted.has(file)) {
      converting.push(file);
      try {
        const source = Deno.readTextFileSync(this.folder.pathOf(file));
        const kinds = new Converter(source, file, this.folder, dotted);
        converted.set(file, { kinds, code: kinds.run().code });
      } catch (err) {
        if (!(err instanceof LocustConvertError)) throw err;
        converted.set(file, null), this.moduleProblems.push(...err.problems);
      } finally {
        converting.pop();
      }
    }
    const m = converted.get(file);
    if (!m) return refuse(`${file} cannot be converted (its lines say why)`);
    if (!this.imports.has(file)) this.imports.set(file, this.imports.size);
    this.options.push(...m.kinds.options.filter((o) => !this.options.includes(o)));
    this.switches.push(...m.kinds.switches);
    return m.kinds;
  }

  /** Module `m` as `local`: its namespace, whose names' kinds are known here as `local.NAME`. */
  private bound(m: Converter, local: string): string {
    for (const name of m.names) this.adoptName(m, name, `${local}.${name}`, false);
    return `__m${this.imports.get(m.file)}`;
  }

  /** What `name` is in module `m` (a class, a function that sends, a user) is what `as` is here. */
  private adoptName(m: Converter, name: string, as: string, top: boolean): void {
    for (const kinds of ["classes", "asyncFunctions", "syncFunctions", "tasksets"] as const) {
      if (m[kinds].has(name)) this[kinds].add(as);
    }
    const user = m.userClasses.get(name);
    if (user !== undefined) this.userClasses.set(as, user);
    // As Locust collects the users and the shape of the locustfile's names, those it imports included.
    if (!top || this.dotted !== null) return;
    if (user !== undefined && !this.users.some((u) => u.name === as)) this.users.push({ ...user, name: as });
    if (m.shapes.includes(name) && !this.shapes.includes(as)) this.shapes.push(as);
  }

  /** Its top level's names, as a module that imports it reads them. */
  get names(): Set<string> {
    const lets = [...this.moduleScope.locals].filter((l) => !this.classes.has(l));
    return new Set([...lets, ...this.defs, ...this.importedNames]);
  }

  /** A function: its parameters read by `__py.args`, its locals declared, async when it may send. */
  private functionDefinition(n: SyntaxNode, decorators: string[], method?: string): string {
    const name = this.text(n.getChild("VariableName")!);
    if (n.getChild("async")) this.refuse(n, "async def: Locust's tasks are plain functions");
    const body = n.getChild("Body")!, generator = isGenerator(n), sending = this.sendingGenerator(n);
    if (sending && !decorators.some((d) => d.endsWith("contextmanager"))) {
      this.refuse(n, "a generator that is a method or sends, not a @contextmanager: make it a task");
    }
    const { names, defaults, rest, restKw, kwOnly } = this.params(n.getChild("ParamList"));
    // A `*args` def calling what its def was given or looked up awaits: a decorator's or `__getattr__`'s
    // wrapper calling the task or the method.
    const given = (c: SyntaxNode) =>
      c.name === "CallExpression" && (this.scope.params?.includes(this.text(c.firstChild!)) === true ||
        this.scope.locals !== this.moduleScope.locals && this.scope.locals.has(this.text(c.firstChild!)));
    // A `@property` is a getter, run where it is read: sync, so it cannot send.
    const getter = method !== undefined && decorators.includes("property");
    // A static or class method: on the class and its instances; a class method's first parameter the class.
    const bound = method === undefined ? undefined : decorators.find((d) => /^(static|class)method$/.test(d));
    decorators = decorators.filter((d) => d !== "property" && d !== bound);
    if (getter && some(body, (c) => this.sends(c))) {
      this.refuse(n, "a @property that sends: make it a method");
    }
    const isAsync = getter ? false : generator ? sending : method !== undefined &&
        !((SYNC.includes(name) || this.syncMethods.has(`${method}.${name}`)) && this.plain.has(method)) ||
      this.asyncFunctions.has(name) || this.scope.async && method === undefined ||
      (rest !== null && some(body, given));
    const inner: Scope = { locals: new Set(), globals: new Set(), async: isAsync, params: names, fn: name };
    for (const s of children(body)) {
      if (s.name === "ScopeStatement") {
        s.getChildren("VariableName").forEach((g) => inner.globals.add(this.text(g)));
      }
      this.collectAssigned(s, inner.locals);
    }
    const selfName = method !== undefined && bound !== "staticmethod" ? names.shift() : undefined;
    for (const p of [...names, rest, restKw, selfName, ...inner.globals]) if (p) inner.locals.delete(p);
    // A name defined again (`def _` per listener) assigns the function the first one declared.
    const top = this.scope === this.moduleScope && !(method === undefined && this.defined.has(name));
    if (method === undefined && this.scope === this.moduleScope) this.defined.add(name);
    const declared = [...names, ...(rest ? [rest] : []), ...(restKw ? [restKw] : [])];
    const js = this.jsName(name), a = isAsync ? "async " : "";
    // A method of `self` alone reads no arguments: no array of them made at each call.
    const head = method !== undefined
      ? `${getter ? "get " : a}${generator ? "*" : ""}${js}(${declared.length === 0 ? "" : "...__a"}) { ${
        selfName ? `const ${this.jsName(selfName)} = ${bound ? "__py.classOf(this)" : "this"}; ` : ""
      }`
      : `${top ? "" : `${js} = `}${a}function${generator ? "*" : ""} ${js}(...__a) { `;
    const [made, values] = defaults.length > 0 ? this.defaultsOf(defaults) : [];
    // A method's, as its class body runs; a function's, as its def runs.
    if (made !== undefined && method === undefined) this.write(`const ${made} = ${values}; `);
    else if (made !== undefined) {
      this.hoisted.push(made);
      this.write(`static { ${made} = ${values}; } `);
    }
    const argsLine = declared.length === 0 && !method
      ? "__py.args(__a, []); "
      : this.readArgs({ names, defaults, rest, restKw, kwOnly: kwOnly && kwOnly - (selfName ? 1 : 0) }, made);
    const locals = [...inner.locals].map((l) => `, ${this.jsName(l)}`).join("");
    this.write(
      `${head}${method !== undefined && declared.length === 0 ? "" : argsLine}let __t, __e${locals}; `,
    );
    this.within({ ...inner, self: selfName, classSelf: bound === "classmethod" }, () => this.body(body));
    const after = (bound ? ` static { this.${js} = this.prototype.${js}; }` : "") +
      (method !== undefined && decorators.length > 0
        ? ` static { __L.decorate(this, ${JSON.stringify(js)}, [${decorators.join(", ")}]); }`
        : this.decorate(name, decorators));
    return ` }${top || method !== undefined ? "" : ";"}${after}`;
  }

  /** A def's or lambda's parameters (a lambda's `list` null when it has none). */
  private params(list: SyntaxNode | null) {
    const names: string[] = [], defaults: Array<SyntaxNode | null> = [];
    let rest: string | null = null, restKw: string | null = null, star = "", kwOnly: number | undefined;
    const parts = list === null ? [] : exprChildren(list);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      // A bare `*` marks the names after it keyword-only: taken as any other name.
      if (p.name === "*" || p.name === "**") {
        star = p.nextSibling?.name === "," ? "" : p.name;
        if (p.name === "*") kwOnly = names.length;
        continue;
      }
      if (p.name === "TypeDef") continue;
      if (p.name !== "VariableName") this.refuse(p, `a parameter of the form ${describe(p.name)}`);
      const name = this.text(p);
      if (star === "*") rest = name, star = "";
      else if (star === "**") restKw = name, star = "";
      else {
        names.push(name);
        if (parts[i + 1]?.name === "TypeDef") i++;
        if (parts[i + 1]?.name === "AssignOp") defaults.push(parts[i + 2]), i += 2;
        else defaults.push(null);
      }
    }
    // Defaults align with the last names.
    const first = defaults.findIndex((d) => d !== null);
    return { names, defaults: first < 0 ? [] : defaults.slice(first), rest, restKw, kwOnly };
  }

  /**
   * `let [a, b] = __py.args(__a, ...);`: the parameters read from the call's arguments `__a`, their defaults
   * from `given`, the array its def made once (as Python's, a `[]` default is one list for every call).
   */
  private readArgs({ names, rest, restKw, kwOnly }: ReturnType<Converter["params"]>, given = "[]"): string {
    const declared = [...names, rest ?? [], restKw ?? []].flat().map((p) => this.jsName(p));
    return `let [${declared.join(", ")}] = __py.args(__a, ${JSON.stringify(names)}, ${given}, ` +
      `${rest !== null}, ${restKw !== null}${kwOnly === undefined ? "" : `, ${kwOnly}`}); `;
  }

  /** A def's defaults, evaluated where it is defined: the array's name, and the code that makes it. */
  private defaultsOf(defaults: Array<SyntaxNode | null>): [string, string] {
    const name = `__d${this.uid++}`;
    return [name, `[${defaults.map((d) => (d === null ? "undefined" : this.expr(d))).join(", ")}]`];
  }

  private decorated(n: SyntaxNode, inClass?: string): string {
    const decorators = n.getChildren("Decorator").map((d) => this.decorator(d));
    const def = (n.getChild("FunctionDefinition") ?? n.getChild("ClassDefinition"))!;
    const steers = (c: SyntaxNode) => {
      const raised = c.name === "RaiseStatement" ? c.lastChild : null;
      const cls = raised?.name === "CallExpression" ? raised.firstChild : raised;
      return cls != null && LOCUST_CLASSES.has(this.text(cls));
    };
    const listener = n.getChildren("Decorator").some((d) => this.text(d).startsWith("@events.request."));
    if (listener && some(def, steers)) {
      this.refuse(
        n,
        "a request listener that raises to steer its user: loadlab runs request listeners " +
          "in the command's process; check the response in the task (catch_response) and return",
      );
    }
    this.at(def);
    return def.name === "FunctionDefinition"
      ? this.functionDefinition(def, decorators, inClass)
      : this.classDefinition(def, decorators, inClass !== undefined);
  }

  private decorator(d: SyntaxNode): string {
    const parts = children(d).filter((c) => c.name !== "At");
    const [head, hook] = [parts[0], parts[2]].map((p) => p === undefined ? "" : this.text(p));
    if (head === "events") this.event(d, hook);
    if (/^(property|staticmethod|classmethod)$/.test(head) && parts.length === 1) return head;
    if (head === "property") this.refuse(d, "@property(...): write @property");
    let text = "";
    for (const p of parts) {
      if (p.name === "VariableName") text += text === "" ? this.name(p) : this.text(p);
      else if (p.name === ".") text += ".";
      else if (p.name === "ArgList") text += `(${this.argList(p)})`;
      else this.refuse(p, "a decorator of this form");
    }
    return text;
  }

  /** A class; `nested` in a class body: an attribute of it (Locust's inline `@task class X(TaskSet)`). */
  private classDefinition(n: SyntaxNode, decorators: string[], nested = false): string {
    const name = this.text(n.getChild("VariableName")!);
    const bases = n.getChild("ArgList");
    const baseNodes = bases === null ? [] : exprChildren(bases);
    // Of several bases (mixins), the class extends the Locust class's and takes the others' members.
    const known = (b: SyntaxNode) =>
      LOCUST_NAMES.has(this.text(b)) || this.userClasses.has(this.text(b)) || this.tasksets.has(this.text(b));
    const main = Math.max(0, baseNodes.findLastIndex(known));
    const base = baseNodes[main], abstractAttr = this.classAttr(n, "abstract");
    const abstract = abstractAttr !== undefined && this.text(abstractAttr) === "True";
    let extendsText = "", isUser = false;
    if (base !== undefined) {
      const baseName = this.text(base);
      extendsText = baseNodes.length === 1
        ? ` extends ${this.expr(base)}`
        : ` extends __L.mixed([${baseNodes.map((b) => this.expr(b)).join(", ")}], ${main})`;
      if (/TaskSet$/.test(baseName) || this.tasksets.has(baseName)) this.tasksets.add(name);
      isUser = ["User", "HttpUser", "FastHttpUser"].includes(baseName) || this.userClasses.has(baseName);
      const shape = baseName === "LoadTestShape" || this.shapes.includes(baseName);
      if (shape && !nested && !abstract) this.shapes.push(name);
    }
    if (isUser && !nested) {
      const host = this.classAttr(n, "host");
      const user = {
        name,
        ...(host?.name === "String" ? { host: this.stringValue(host) } : {}),
        ...(abstract ? { abstract: true } : {}),
      };
      this.userClasses.set(name, user);
      if (this.dotted === null) this.users.push(user);
    }
    const applied = decorators.map((d) => `(${d})(`).join("");
    const baseText = base === undefined ? "object" : this.text(base);
    if (baseText === "object") extendsText = " extends __py.PyObject";
    if (baseText === "object" || this.plain.has(baseText)) this.plain.add(name), this.syncStatics(name, n);
    const head = `class ${this.jsName(name)}${extendsText} { `;
    this.write(nested ? `static { __L.attr(this, ${JSON.stringify(name)}, ${applied}${head}` : head);
    // Python runs a class body as code: its names are the class's, read and given in it as attributes.
    const body = n.getChild("Body"),
      members = body === null ? [] : children(body),
      cls = new Map<string, string>();
    for (const s of members) {
      const [def, inner] = [s.getChild("FunctionDefinition"), s.getChild("ClassDefinition") ?? s];
      const names = new Set<string>(),
        at = def !== null || s.name === "FunctionDefinition" ? "prototype." : "";
      if (inner.name === "ClassDefinition") {
        const nested = this.text(inner.getChild("VariableName")!);
        names.add(nested);
        this.nestedClasses.add(nested);
      } else this.collectAssigned(s, names);
      names.forEach((a) => cls.set(a, `this.${at}${this.jsName(a)}`));
    }
    this.within({ ...this.scope, cls }, () => members.forEach((s) => this.statement(s, name)));
    if (nested) return ` }${")".repeat(decorators.length)}); }`;
    return ` }${this.decorate(name, decorators)}`;
  }

  /** Plain class `cls`'s static and class methods that neither send nor call a function that may. */
  private syncStatics(cls: string, n: SyntaxNode): void {
    const defs = new Map<string, SyntaxNode>();
    for (const m of children(n.getChild("Body") ?? n).filter((m) => m.name === "DecoratedStatement")) {
      // A decorated nested class (`@dataclass class Route`) is no method.
      const def = m.getChild("FunctionDefinition");
      if (def !== null && /^@(staticmethod|classmethod)\s/.test(this.text(m))) {
        defs.set(this.text(def.getChild("VariableName")!), def);
      }
    }
    const first = (def: SyntaxNode) => this.text(def.getChild("ParamList")!).match(/\w+/)?.[0];
    const waits = (c: SyntaxNode, def: SyntaxNode) => {
      if (c.name === "PropertyName" && this.text(c) === "client" || this.sends(c)) return true;
      const callee = c.name === "CallExpression" ? this.text(c.firstChild!) : "";
      const [, head, called] = /^(?:(\w+)\.)?(\w+)$/.exec(callee) ?? [];
      // A plain object made (`cls(...)`, `Endpoint(...)`) runs its `__init__` synchronously.
      const made = this.plain.has(called) || called === first(def) || BUILTINS.has(called);
      if (called === undefined || head === undefined) {
        return called !== undefined && !made && !this.syncFunctions.has(called);
      }
      return [cls, first(def)].includes(head) && !defs.has(called);
    };
    for (let shrank = true; shrank;) {
      shrank = false;
      for (const [name, def] of defs) if (some(def, (c) => waits(c, def))) defs.delete(name), shrank = true;
    }
    defs.forEach((_, name) => this.syncMethods.add(`${cls}.${name}`));
  }

  /** `name = d1(d2(name));` after a def or class with decorators, as Python applies them. */
  private decorate(name: string, decorators: string[]): string {
    const js = this.jsName(name);
    return decorators.length === 0 ? "" : ` ${js} = ${decorators.reduceRight((f, d) => `(${d})(${f})`, js)};`;
  }

  /** The value a class body assigns to `name` (`host = "..."`), or undefined. */
  private classAttr(cls: SyntaxNode, name: string): SyntaxNode | undefined {
    const body = cls.getChild("Body");
    return (body === null ? [] : children(body)).map((s) => this.attribute(s)).find((a) => a?.[0] === name)
      ?.[1];
  }

  /** A class body's `name = value` (a type hint left out): its name and value, else null. */
  private attribute(s: SyntaxNode): [string, SyntaxNode] | null {
    const [target, op, value, ...more] = children(s).filter((c) => c.name !== "TypeDef");
    const is = s.name === "AssignStatement" && more.length === 0 && target.name === "VariableName";
    return is && op?.name === "AssignOp" && value !== undefined ? [this.text(target), value] : null;
  }

  private classMember(s: SyntaxNode, cls: string): string {
    if (s.name === "FunctionDefinition") return this.functionDefinition(s, [], cls);
    if (s.name === "ClassDefinition") return this.classDefinition(s, [], true);
    if (s.name === "DecoratedStatement") return this.decorated(s, cls);
    // `name: type`, with a value or without: a field as `dataclasses` reads them, in order.
    const [target, hint] = children(s), [attr, value] = this.attribute(s) ?? [];
    if (s.name === "AssignStatement" && target.name === "VariableName" && hint?.name === "TypeDef") {
      this.write(`static { __annotate(this, ${JSON.stringify(this.text(target))}); } `);
    }
    if (attr === "tasks" && value?.name === "DictionaryExpression") {
      return `static { __L.attr(this, "tasks", ${this.taskDict(value)}); }`;
    }
    // Any other statement runs as Python runs a class body, its names given as the class's attributes.
    if (some(s, (c) => /^(Function|Class)Definition$/.test(c.name), "LambdaExpression")) {
      this.refuse(s, `a def or class in a class body's ${describe(s.name)}: define it in the body itself`);
    }
    this.write("static { ");
    return `${this.stmt(s)} }`;
  }

  private taskDict(d: SyntaxNode): string {
    const items = exprChildren(d).map((c) => this.expr(c));
    const pairs = items.flatMap((k, i) =>
      i % 2 === 0 && i + 1 < items.length ? [`[${k}, ${items[i + 1]}]`] : []
    );
    return `__L.taskDict([${pairs.join(", ")}])`;
  }

  // ---- expressions ----

  private within<T>(scope: Scope, write: () => T): T {
    const saved = this.scope;
    this.scope = scope;
    try {
      return write();
    } finally {
      this.scope = saved;
    }
  }

  private expr(n: SyntaxNode): string {
    const write = this.EXPRESSIONS[n.name];
    return write === undefined ? this.refuse(n, `${describe(n.name)} ${OUTSIDE}`) : write(n);
  }

  private readonly EXPRESSIONS: Record<string, (n: SyntaxNode) => string> = {
    VariableName: (n) => this.name(n),
    Number: (n) => this.number(n),
    String: (n) => JSON.stringify(this.stringValue(n)),
    ContinuedString: (n) => children(n).map((c) => this.expr(c)).join(" + "),
    FormatString: (n) => this.formatString(n),
    Boolean: (n) => this.text(n) === "True" ? "true" : "false",
    None: () => "null",
    ParenthesizedExpression: (n) => `(${this.expr(exprChildren(n)[0])})`,
    TupleExpression: (n) => this.tupleOf(exprChildren(n)),
    ArrayExpression: (n) => `[${this.items(n)}]`,
    SetExpression: (n) => `__py.builtins.set([${this.items(n)}])`,
    DictionaryExpression: (n) => `{ ${this.items(n, true)} }`,
    MemberExpression: (n) => this.member(n),
    CallExpression: (n) => this.call(n),
    BinaryExpression: (n) => this.binaryExpression(n),
    UnaryExpression: (n) => {
      const [op, value] = children(n), o = this.text(op);
      return o === "not" ? this.not(value) : `(${o}${this.expr(value)})`;
    },
    ConditionalExpression: (n) => {
      const [a, , cond, , b] = children(n);
      return `(__py.bool(${this.expr(cond)}) ? ${this.expr(a)} : ${this.expr(b)})`;
    },
    NamedExpression: (n) => `(${this.store(n.firstChild!, this.expr(n.lastChild!))})`,
    ArrayComprehensionExpression: (n) => this.comprehension(n, false),
    ComprehensionExpression: (n) => this.comprehension(n, false),
    SetComprehensionExpression: (n) => `__py.builtins.set(${this.comprehension(n, false)})`,
    DictionaryComprehensionExpression: (n) => this.comprehension(n, true),
    LambdaExpression: (n) => this.lambda(n),
  };

  private name(n: SyntaxNode): string {
    const name = this.text(n);
    const own = this.scope.cls?.get(name);
    if (own !== undefined) return own;
    const known = this.scope.locals.has(name) || this.scope.globals.has(name) || this.moduleNames.has(name) ||
      this.scope.self === name;
    if (!known && BUILTINS.has(name)) return `__py.builtins.${name}`;
    if (!known && name === "__file__") {
      return `__L.locustPath(${this.dotted === null ? "" : JSON.stringify(this.file)})`;
    }
    if (!known && name === "__name__") return JSON.stringify(this.dotted ?? "locustfile");
    return this.jsName(name);
  }

  private jsName(name: string): string {
    // A dunder is Python's own, apart from JavaScript's (`__proto__`), but for `with`'s, which loadlab calls.
    return JS_RESERVED.has(name) || name.startsWith("__") && !/^__(enter|exit)__$/.test(name)
      ? `${name}_py`
      : name;
  }

  private number(n: SyntaxNode): string {
    const t = this.text(n).replaceAll("_", "");
    if (t.endsWith("j") || t.endsWith("J")) this.refuse(n, "complex numbers");
    return t.startsWith("0O") ? `0o${t.slice(2)}` : t;
  }

  /** A Python string literal's value (its prefixes, quotes and escapes read). */
  private stringValue(n: SyntaxNode): string {
    const t = this.text(n), { at, quote, raw } = quoteOf(t);
    const body = t.slice(at + quote, t.length - quote);
    return raw ? body : unescape(body);
  }

  private formatString(n: SyntaxNode): string {
    const { at: prefixEnd, quote, raw } = quoteOf(this.text(n));
    const start = n.from + prefixEnd + quote, end = n.to - quote;
    const pieces: string[] = [];
    let at = start;
    const literal = (from: number, to: number) => {
      if (to <= from) return;
      const text = this.src.slice(from, to).replaceAll("{{", "{").replaceAll("}}", "}");
      pieces.push(JSON.stringify(raw ? text : unescape(text)));
    };
    for (const r of n.getChildren("FormatReplacement")) {
      literal(at, r.from);
      const value = children(r).find((c) =>
        !["{", "}", "FormatConversion", "FormatSpec", "FormatSelfDoc"].includes(c.name)
      )!;
      const [conversion, spec, eq] = ["Conversion", "Spec", "SelfDoc"].map((c) => r.getChild(`Format${c}`));
      if (spec?.getChild("FormatReplacement")) this.refuse(spec, "a nested replacement in a format spec");
      let v = this.isFloat(value) ? `__py.fl(${this.expr(value)})` : this.expr(value);
      // `{x=}` says its own text first, then the value's repr unless a conversion or spec is given.
      if (eq !== null) pieces.push(JSON.stringify(this.src.slice(r.from + 1, eq.nextSibling!.from)));
      if (conversion ? this.text(conversion) === "!r" : eq !== null && spec === null) v = `__py.repr(${v})`;
      const specText = spec === null ? "" : this.text(spec).slice(this.text(spec).startsWith(":") ? 1 : 0);
      pieces.push(specText === "" ? `__py.str(${v})` : `__py.format(${v}, ${JSON.stringify(specText)})`);
      at = r.to;
    }
    literal(at, end);
    return pieces.length === 0 ? '""' : `(${pieces.join(" + ")})`;
  }

  private tupleOf(values: SyntaxNode[]): string {
    return `__py.tuple(${values.map((v) => this.expr(v)).join(", ")})`;
  }

  /** A list's or set's items (`*xs` spread), or a dict's pairs (`**d` spread). */
  private items(n: SyntaxNode, dict = false): string {
    const out: string[] = [];
    const parts = exprChildren(n);
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p.name === "*" || p.name === "**") {
        out.push(`...${dict ? "" : "__py.iter"}(${this.expr(parts[++i])})`);
      } else if (!dict) out.push(this.expr(p));
      else {
        const k = p.name === "String" ? JSON.stringify(this.stringValue(p)) : `[__py.str(${this.expr(p)})]`;
        out.push(`${k}: ${this.expr(parts[++i])}`);
      }
    }
    return out.join(", ");
  }

  /** `x[...]`: a key, or a slice's bounds. */
  private subscript(n: SyntaxNode): { slice: boolean; text: string } {
    const parts = children(n);
    const open = parts.findIndex((c) => c.name === "[");
    const inner = parts.slice(open + 1, -1);
    if (!inner.some((c) => c.name === ":")) {
      const key = inner.filter((c) => c.name !== ",");
      return { slice: false, text: inner.length === 1 ? this.expr(inner[0]) : this.tupleOf(key) };
    }
    const bounds: string[] = ["null"];
    for (const c of inner) {
      if (c.name === ":") bounds.push("null");
      else bounds[bounds.length - 1] = this.expr(c);
    }
    return { slice: true, text: bounds.join(", ") };
  }

  private member(n: SyntaxNode): string {
    const [obj, op, prop] = children(n);
    if (op.name === "[") {
      const key = this.subscript(n);
      return key.slice
        ? `__py.slice(${this.expr(obj)}, ${key.text})`
        : `__py.getitem(${this.expr(obj)}, ${key.text})`;
    }
    const p = this.text(prop);
    if (this.text(obj) === "events") this.event(n, p);
    const environment = `${this.scope.self}.environment`;
    if (this.text(obj) === environment && !["parsed_options", "host", "runner", "events"].includes(p)) {
      this.refuse(
        n,
        `self.environment.${p}: a user's environment holds parsed_options, host, runner, events`,
      );
    }
    if (this.text(obj) === `${environment}.runner` && !["quit", "user_count"].includes(p)) {
      // A name Locust's runner lacks too raises where it runs, as Locust's AttributeError.
      if (!RUNNER_HAS.includes(p)) return `__py.method(${this.expr(obj)}, ${JSON.stringify(p)})`;
      this.refuse(n, `self.environment.runner.${p}: a user's runner has quit() and user_count only`);
    }
    if (p === "__name__") return `__py.nameOf(${this.expr(obj)})`;
    if (METHOD_NAMES.has(p)) return `__py.bound(${this.expr(obj)}, "${p}")`;
    return `${this.expr(obj)}.${p === "__class__" ? "constructor" : p}`;
  }

  private event(n: SyntaxNode, name: string): void {
    if (!LOCUST_EVENTS.includes(name)) this.refuse(n, `events.${name}: ${EVENTS_HELD}`);
  }

  private call(n: SyntaxNode): string {
    const callee = n.firstChild!;
    const argList = n.getChild("ArgList")!;
    // What makes a text of its arguments: a float among them is written as one (`2.0`).
    const texts = callee.name === "VariableName" && /^__py\.builtins\.(str|print)$/.test(this.name(callee)) ||
      callee.name === "MemberExpression" && /\.(format|debug|info|warning|error|critical|exception)$/.test(
          this.text(callee),
        );
    // `times.append(t / 2)`: a list of floats, as `sum` and `statistics.mean` of it are.
    if (/\.append$/.test(this.text(callee)) && this.isFloat(exprChildren(argList)[0])) {
      this.floatName(callee.firstChild!, true);
    }
    let args = this.argList(argList, texts);
    let call: string;
    let awaits = this.scope.async;
    const text = this.text(callee), first = children(argList)[1];
    // `partial(self.client.get, ...)`: the method bound to its object, as Python's attribute read binds it.
    if (/^(functools\.)?partial$/.test(text) && first?.name === "MemberExpression") {
      const [obj, , prop] = children(first);
      args = args.replace(this.expr(first), `__py.builtins.getattr(${this.expr(obj)}, "${this.text(prop)}")`);
    }
    // A class of the file's (or of a module's it imports: `helpers.Cart`) or Locust's (by its name, or by
    // its module's: `locust.event.EventHook`) is made.
    const head = text.split(".")[0], bare = text.split(".").pop()!;
    const made = LOCUST_CLASSES.has(bare) && this.moduleNames.has(head) && [bare, "locust"].includes(head);
    const nested = this.nestedClasses.has(text) && this.scope.cls?.has(text);
    if (this.classes.has(text) || made || nested || this.scope.classSelf && text === this.scope.self) {
      return `new ${this.expr(callee)}(${args})`;
    }
    if (callee.name === "MemberExpression" && callee.getChild(".")) {
      const [obj, , prop] = children(callee);
      const method = this.text(prop);
      const objText = this.text(obj);
      // `super(Cls, self)`, Python 2's spelling, names the method's own class and object: `super()`.
      const sup = this.text(obj).replace(/\s/g, "").match(/^super\((?:\w+,(\w+))?\)$/);
      if (obj.name === "CallExpression" && sup && [undefined, this.scope.self].includes(sup[1])) {
        if (this.scope.self === undefined) this.refuse(n, "super() outside a method");
        return `(${this.scope.async ? "await " : ""}super.${this.jsName(method)}(${args}))`;
      }
      const pyModule = obj.name === "VariableName" && PY_MODULES.has(objText);
      const direct = pyModule ||
        obj.name === "VariableName" && [this.scope.self, "locust", "events"].includes(objText);
      const viaSelf = obj.name === "MemberExpression" && this.text(obj) === `${this.scope.self}.client`;
      if (pyModule && !(method in MODULES[objText]) && !(method in Object(MODULES[objText][objText]))) {
        this.refuse(n, `${objText}.${method}: ${INSTEAD[objText] ?? "not in the subset"} (docs/LOCUST.md)`);
      }
      if (pyModule && method !== "sleep") awaits = false;
      if (method === "fire" && /^events\.(?!request$)/.test(objText)) {
        this.refuse(n, `${objText}.fire: ${FIRED}`);
      }
      if (method === "add_listener" && objText.startsWith(`${this.scope.self}.environment.events`)) {
        this.refuse(
          n,
          "a listener a user adds: add it once, at the top level (@events.request.add_listener)",
        );
      }
      if (/^(register|send)_message$/.test(method)) this.refuse(n, `${method}: ${MESSAGES}`);
      call = direct || viaSelf
        ? `${this.expr(obj)}.${method}(${args})`
        : `__py.method(${this.expr(obj)}, ${JSON.stringify(method)}${args === "" ? "" : `, ${args}`})`;
      // Awaited only when it returns a promise: a call of a sync function costs no await.
      if (!direct && !viaSelf && awaits) return `((__t = ${call}) instanceof Promise ? await __t : __t)`;
      if (viaSelf || /^(sleep|interrupt)$/.test(method) || this.waitsOnQueue(text)) this.mustAwait(n);
      if (method === "add_argument" && first?.name === "String") {
        const name = this.stringValue(first).replace(/^-+/, "");
        this.options.push(name);
        if (/\baction\s*=\s*["']store_(true|false)["']/.test(this.text(argList))) this.switches.push(name);
      }
      for (const p of viaSelf ? children(argList) : []) {
        const key = p.name === "VariableName" && p.nextSibling?.name === "AssignOp" ? this.text(p) : "name";
        if (!REQUEST_KEYS.includes(key) && key !== "url" && key !== "method") {
          this.refuse(p, `self.client's ${key}=: the subset sends ${REQUEST_KEYS.join(", ")}`);
        }
      }
    } else if (callee.name === "VariableName") {
      const name = this.text(callee);
      const target = this.name(callee);
      if (target === name && PY_BUILTINS_OUTSIDE.includes(name) && !this.moduleNames.has(name)) {
        this.refuse(n, `${name}(): a Python builtin outside the subset (docs/LOCUST.md lists those it has)`);
      }
      if (target.startsWith("__py.builtins.") || this.syncFunctions.has(name)) awaits = false;
      if (this.asyncFunctions.has(name)) this.mustAwait(n);
      call = `${target}(${args})`;
    } else call = `${this.expr(callee)}(${args})`;
    return awaits ? `(await ${call})` : call;
  }

  /** Whether call `n` sends or sleeps: a request of a `.client`, `sleep`, `interrupt`, `rest()` or `fns`'. */
  private sends(n: SyntaxNode, fns = this.asyncFunctions): boolean {
    const callee = n.name === "CallExpression" ? this.text(n.firstChild!) : "";
    return SENDS.test(callee) || fns.has(callee) || this.waitsOnQueue(callee);
  }

  /** Whether `callee` asks a queue's `get`, `qsize` or `empty`: a `get()` may wait for a `put()`. */
  private waitsOnQueue(callee: string): boolean {
    const [, holder] = /(?:^|\.)(\w+)\.(get|get_nowait|qsize|empty)$/.exec(callee) ?? [];
    return holder !== undefined && this.queues.has(holder);
  }

  /** Whether generator `def` is a method or sends: an async generator, whose `with` blocks await. */
  private sendingGenerator(def: SyntaxNode): boolean {
    const inClass = (n: SyntaxNode | null) => n?.name === "Body" && n.parent?.name === "ClassDefinition";
    return isGenerator(def) && (inClass(def.parent) || inClass(def.parent?.parent ?? null) ||
      some(def.getChild("Body")!, (c) => this.sends(c)));
  }

  private mustAwait(n: SyntaxNode): void {
    if (!this.scope.async) {
      this.refuse(n, "a request, sleep or queue read outside a task, on_start or a function tasks call");
    }
  }

  /** A call's arguments; `texts`: a float among them typed one, so its text is a float's (`2.0`). */
  private argList(list: SyntaxNode, texts = false): string {
    const parts = exprChildren(list);
    // `f(x for x in xs)`: the one argument is a generator, read as a list.
    if (parts.some((c) => c.name === "for")) return this.comprehension(list, false);
    const positional: string[] = [], named: string[] = [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i];
      if (p.name === "*") positional.push(`...__py.iter(${this.expr(parts[++i])})`);
      else if (p.name === "**") named.push(`...${this.expr(parts[++i])}`);
      else if (p.name === "VariableName" && parts[i + 1]?.name === "AssignOp") {
        const v = parts[i + 2];
        named.push(
          `${JSON.stringify(this.text(p))}: ${
            texts && this.isFloat(v) ? `__py.fl(${this.expr(v)})` : this.expr(v)
          }`,
        );
        i += 2;
      } else positional.push(texts && this.isFloat(p) ? `__py.fl(${this.expr(p)})` : this.expr(p));
    }
    if (named.length > 0) positional.push(`new __py.Kw({ ${named.join(", ")} })`);
    return positional.join(", ");
  }

  /**
   * Whether `n` is a float as Python types it: a float literal, `/`, `float()`, arithmetic, `abs` or
   * `round(x, n)` of one, or a name last given one. JavaScript has one number, so only its text tells.
   */
  private isFloat(n: SyntaxNode | undefined): boolean {
    const t = n === undefined ? "" : this.text(n), parts = n === undefined ? [] : exprChildren(n);
    switch (n?.name) {
      case "Number":
        return !/^0[box]/i.test(t) && /[.eE]/.test(t);
      case "VariableName":
        return (this.scope.locals.has(t) ? this.scope : this.moduleScope).floats?.has(t) === true ||
          !this.scope.locals.has(t) && this.folder.floats.has(t) || FLOAT_VALUE.test(this.pyName(n));
      case "MemberExpression":
        // `math.pi`, `self.total` given a float, `times[0]` of a list of floats.
        return n.getChild(".") === null
          ? this.isFloat(n.firstChild!)
          : FLOAT_VALUE.test(this.pyName(n)) || this.folder.floats.has(`.${this.text(n.lastChild!)}`);
      case "ParenthesizedExpression":
      case "UnaryExpression":
        return this.isFloat(parts.at(-1));
      case "ArrayExpression":
      case "TupleExpression":
      case "SetExpression":
        return parts.some((p) => this.isFloat(p));
      case "ArrayComprehensionExpression":
      case "ComprehensionExpression":
        return this.isFloat(parts[0]);
      case "ConditionalExpression":
        return this.isFloat(parts[0]) || this.isFloat(parts.at(-1));
      case "BinaryExpression": {
        const op = this.middleOp(n);
        return op === "/" || /^([-+*%]|\/\/|\*\*)$/.test(op) && parts.some((p) => this.isFloat(p));
      }
      case "CallExpression": {
        const f = this.pyName(n.firstChild!), args = exprChildren(n.getChild("ArgList")!);
        return FLOAT_CALL.test(f) || f === "round" && args.length > 1 ||
          FLOAT_OF_ARGS.test(f) && args.some((a) => this.isFloat(a)) ||
          this.folder.floats.has(`${f.split(".").pop()}()`);
      }
    }
    return false;
  }

  /**
   * Learns that `target` holds a float: a name in its scope, an attribute (`.total`) or a function that
   * returns one (`avg()`, `n` its return) in the file's, which a pass after this one reads.
   */
  private floatName(target: SyntaxNode, float: boolean): void {
    if (target.name === "MemberExpression" && target.getChild(".") && float) {
      this.folder.floats.add(`.${this.text(target.lastChild!)}`);
    } else if (target.name === "ReturnStatement") this.folder.floats.add(`${this.scope.fn}()`);
    if (target.name !== "VariableName") return;
    const name = this.text(target), local = this.scope.locals.has(name) || this.scope === this.moduleScope;
    // A module's list a function appends a float to (`times`): the file's, as a listener before it reads it.
    if (!local) return void (float && this.folder.floats.add(name));
    const floats = this.scope.floats ??= new Set();
    float ? floats.add(name) : floats.delete(name);
  }

  /** `m.sqrt` as Python's name of it (`math.sqrt`), by the file's imports. */
  private pyName(n: SyntaxNode): string {
    const [head, ...rest] = this.text(n).split(".");
    return [this.pyNames.get(head) ?? head, ...rest].join(".");
  }

  /** `not n`: the parser takes all of `not a and b` as its operand; Python's `not` binds `a` alone. */
  private not(n: SyntaxNode): string {
    const logical = n.name === "BinaryExpression" && /^(and|or)$/.test(this.middleOp(n));
    return logical ? this.binaryExpression(n, true) : `!__py.bool(${this.expr(n)})`;
  }

  private binaryExpression(n: SyntaxNode, not = false): string {
    const parts = children(n), ops = this.middleOp(n);
    const [a, b] = [parts[0], parts[parts.length - 1]];
    const left = not ? this.not(a) : this.expr(a);
    if (ops === "and") return `(__py.bool(__t = ${left}) ? ${this.expr(b)} : __t)`;
    if (ops === "or") return `(__py.bool(__t = ${left}) ? __t : ${this.expr(b)})`;
    if (isComparison(ops) && a.name === "BinaryExpression" && isComparison(this.middleOp(a))) {
      this.refuse(n, "a chained comparison (a < b < c): write a < b and b < c");
    }
    if (ops === "%" && a.name === "String") {
      // `"%s" % 2.0`: a float's text (its number still, to `%d` or `%.2f`).
      const value = (v: SyntaxNode) => this.isFloat(v) ? `__py.fl(${this.expr(v)})` : this.expr(v);
      const items = b.name === "TupleExpression" ? `__py.tuple(${exprChildren(b).map(value)})` : value(b);
      return `__py.mod(${left}, ${items})`;
    }
    return this.binary(ops, this.expr(a), this.expr(b), n);
  }

  private middleOp(n: SyntaxNode): string {
    return children(n).slice(1, -1).map((c) => this.text(c)).join(" ");
  }

  private binary(op: string, a: string, b: string, node: SyntaxNode): string {
    if (op === "is" || op === "is not") {
      const eq = b === "null" ? "=" : "==";
      return `(${a} ${op === "is" ? "=" : "!"}${eq} ${b})`;
    }
    const form = BINARY[op] ?? this.refuse(node, `the operator ${op}`);
    return form.replace(/[AB]/g, (m) => m === "A" ? a : b);
  }

  private comprehension(n: SyntaxNode, dict: boolean): string {
    const parts = children(n).filter((c) => !["[", "]", "{", "}", "(", ")", ",", ":"].includes(c.name));
    const forAt = parts.findIndex((c) => c.name === "for");
    const [key, value] = parts.slice(0, forAt);
    // The loop variables are the comprehension's own.
    const own = new Set(this.scope.locals);
    const inAfter = (i: number) => parts.findIndex((c, j) => j > i && c.name === "in");
    parts.forEach((p, i) =>
      p.name === "for" && parts.slice(i + 1, inAfter(i)).forEach((t) => this.targetNames(t, own))
    );
    let body = "", depth = 0;
    // Async (a function of its own to await) only when it sends or calls a method of the class.
    const self = `${this.scope.self}.`;
    const async = this.scope.async &&
      some(n, (c) => this.sends(c) || (c.name === "CallExpression" && this.text(c).startsWith(self)));
    // Its first iterable is read where it stands; the rest in a scope of its own, which no class body's is.
    const first = this.within({ ...this.scope, async }, () => this.expr(parts[inAfter(forAt) + 1]));
    this.within({ ...this.scope, locals: own, async, cls: undefined }, () => {
      // Each clause a block within the one before: `for ... in ...` and `if ...`.
      for (let i = forAt; i < parts.length; i++, depth++) {
        if (parts[i].name === "async") this.refuse(n, "async comprehensions");
        if (parts[i].name === "if") body += `if (__py.bool(${this.expr(parts[++i])})) { `;
        else {
          const inAt = inAfter(i), targets = parts.slice(i + 1, inAt).map((t) => this.patternOf(t));
          const names = targets.length === 1 ? targets[0] : `[${targets.join(", ")}]`;
          const iterable = i === forAt ? first : this.expr(parts[inAt + 1]);
          body += `for (const ${names} of __py.iter(${iterable})) { `, i = inAt + 1;
        }
      }
      body += dict
        ? `__r[__py.str(${this.expr(key)})] = ${this.expr(value)};`
        : `__r.push(${this.expr(key)});`;
    });
    body += " }".repeat(depth);
    const init = dict ? "{}" : "[]";
    return async
      ? `(await (async () => { const __r = ${init}; ${body} return __r; })())`
      : `(() => { const __r = ${init}; ${body} return __r; })()`;
  }

  private targetNames(t: SyntaxNode, into: Set<string>): void {
    if (t.name === "VariableName") into.add(this.text(t));
    else for (const c of exprChildren(t)) this.targetNames(c, into);
  }

  private patternOf(t: SyntaxNode): string {
    if (t.name === "VariableName") return this.jsName(this.text(t));
    if (t.name === "TupleExpression" || t.name === "ParenthesizedExpression") {
      return `[${exprChildren(t).map((c) => this.patternOf(c)).join(", ")}]`;
    }
    return this.refuse(t, `a loop target of the form ${describe(t.name)}`);
  }

  /** A lambda; one that sends (`tasks = [lambda user: ...]`) is async, awaited where it is called. */
  private lambda(n: SyntaxNode): string {
    const p = this.params(n.getChild("ParamList")), body = n.lastChild!;
    const async = some(body, (c) => this.sends(c)), own = [...p.names, p.rest ?? [], p.restKw ?? []].flat();
    const scope = { ...this.scope, locals: new Set([...this.scope.locals, ...own]), async, cls: undefined };
    const [d, values] = p.defaults.length > 0 ? this.defaultsOf(p.defaults) : [];
    const fn = `(${async ? "async " : ""}(...__a) => { ${this.readArgs(p, d)}return ${
      this.within(scope, () => this.expr(body))
    }; })`;
    return d === undefined ? fn : `((${d}) => ${fn})(${values})`;
  }
}

/** The callees `sends` knows without the file's functions. */
const SENDS = /(^|\.)(client\.(get|post|put|patch|delete|head|options|request)|sleep|interrupt|rest_?)$/;

/** A node's children, its comments left out (a comment may sit between any two of them). */
function children(n: SyntaxNode): SyntaxNode[] {
  const out: SyntaxNode[] = [];
  for (let c = n.firstChild; c !== null; c = c.nextSibling) if (c.name !== "Comment") out.push(c);
  return out;
}

const PUNCTUATION = new Set(("( ) [ ] { } , : return assert del raise from while else Body").split(" "));

function exprChildren(n: SyntaxNode): SyntaxNode[] {
  return children(n).filter((c) => !PUNCTUATION.has(c.name));
}

function isGenerator(def: SyntaxNode): boolean {
  return some(def.getChild("Body")!, (n) => n.name === "YieldStatement");
}

/** Whether `test` holds for `n` or a node within it (not within a node of kind `skip`). */
function some(n: SyntaxNode, test: (n: SyntaxNode) => boolean, skip?: string): boolean {
  for (let c = n.firstChild; c !== null; c = c.nextSibling) {
    if (c.name !== skip && some(c, test, skip)) return true;
  }
  return test(n);
}

/** Python's binary operators as JavaScript (`A` and `B` the operands). */
const BINARY: Record<string, string> = {
  "+": "__py.add(A, B)",
  "-": "__py.sub(A, B)",
  "*": "__py.mul(A, B)",
  "/": "__py.div(A, B)",
  "//": "__py.floordiv(A, B)",
  "%": "__py.mod(A, B)",
  "**": "(A ** B)",
  "==": "__py.eq(A, B)",
  "!=": "!__py.eq(A, B)",
  "in": "__py.contains(B, A)",
  "not in": "!__py.contains(B, A)",
  "|": "__py.or(A, B)",
  ...Object.fromEntries("< > <= >= & ^ << >>".split(" ").map((op) => [op, `(A ${op} B)`])),
};

const isComparison = (op: string) => ["<", ">", "<=", ">=", "==", "!="].includes(op);

const OUTSIDE = "is outside the subset loadlab converts (docs/LOCUST.md)";

/** A statement of a string alone: a docstring, not run. */
function isDocstring(n: SyntaxNode): boolean {
  return n.firstChild?.name === "String" || n.firstChild?.name === "ContinuedString";
}

/** A node kind as a reader knows it (`YieldExpression` -> `yield expression`). */
function describe(kind: string): string {
  return kind.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

/** Python's one-letter escapes (`\\`, `\'`, `\"` are themselves; an unknown one keeps its backslash). */
const ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };

/** Where a string token's quote starts (after its prefix letters, `f`, `r`, `b`), and its quote's length. */
function quoteOf(token: string): { at: number; quote: number; raw: boolean } {
  let at = 0;
  while (at < token.length && token[at] !== "'" && token[at] !== '"') at++;
  const quote = token.startsWith('"""', at) || token.startsWith("'''", at) ? 3 : 1;
  return { at, quote, raw: token.slice(0, at).toLowerCase().includes("r") };
}

function unescape(body: string): string {
  return body.replace(
    /\\(x[\da-fA-F]{2}|u[\da-fA-F]{4}|U[\da-fA-F]{8}|[0-7]{1,3}|[\s\S])/g,
    (m, e: string) => {
      if (ESCAPES[e] !== undefined) return ESCAPES[e];
      if ("\\'\"".includes(e)) return e;
      if (e === "\n") return "";
      if (/^[xuU]./.test(e)) return String.fromCodePoint(parseInt(e.slice(1), 16));
      return /^[0-7]/.test(e) ? String.fromCharCode(parseInt(e, 8)) : m;
    },
  );
}
