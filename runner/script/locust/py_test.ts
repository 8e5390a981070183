import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import {
  add,
  args,
  bound,
  builtins,
  format,
  getitem,
  Kw,
  mapping,
  matches,
  method,
  mod,
  PyError,
  setitem,
  slice,
  str,
  sub,
  tuple,
} from "./py.ts";
import { MODULES } from "./py_modules.ts";

const { open } = builtins;

Deno.test("Python's values as a locustfile's helpers read them", () => {
  assertEquals(slice([1, 2, 3, 4], -2, null), [3, 4]);
  // A user killed in a wait at the end is gevent's GreenletExit: `except Exception` lets it by, as Python's.
  const killed = Object.assign(new Error(), { name: "GreenletExit" });
  const { Exception } = builtins as Record<string, unknown>;
  assertEquals([matches(killed, Exception), matches(new Error(), Exception)], [false, true]);
  // type() of an error raised by name is its class: `type(e).__name__`, `type(e) is json.JSONDecodeError`.
  const decoding = new PyError("JSONDecodeError", "Expecting value");
  assertEquals([builtins.type(decoding), (builtins.type(decoding) as Error).name], [
    MODULES.json.JSONDecodeError,
    "JSONDecodeError",
  ]);
  assertEquals(slice("abcdef", null, null, -2), "fdb");
  assertEquals(getitem([1, 2, 3], -1), 3);
  throws(() => getitem({ a: 1 }, "b"), (e: unknown) => e instanceof PyError && e.pyType === "KeyError");
  assertEquals(format(3.14159, ".2f"), "3.14");
  assertEquals(format(7, ">4"), "   7");
  assertEquals(format(1234567, ","), "1,234,567");
  assertEquals(mod("%s has %d items", ["cart", 3.9]), "cart has 3 items");
  assertEquals(method("a-b-c", "split", "-", 1), ["a", "b-c"]);
  assertEquals(method("{} and {name}", "format", 1, new Kw({ name: "x" })), "1 and x");
  assertEquals(method("{{{0}}} {{}}", "format", 7), "{7} {}");
  assertEquals([method("/user", "removeprefix", "/"), method("a.py", "removesuffix", ".py")], ["user", "a"]);
  assertEquals(method("k=v=w", "partition", "="), ["k", "=", "v=w"]);
  assertEquals(method({ a: 1 }, "get", "b", 0), 0);
  assertEquals(method(mapping((k) => k === "a" ? "x" : null), "get", "a"), "x"); // response headers
  assertEquals(str([1, "a", null, true, 2.5]), "[1, 'a', None, True, 2.5]");
  assertEquals(str(builtins.enumerate(["a"], 1)), "[(1, 'a')]");
  assertEquals(builtins.sorted([3, 1, 2], new Kw({ reverse: true })), [3, 2, 1]);
  assertEquals(builtins.int("42"), 42);
  assertEquals([builtins.ord("A"), builtins.chr(66)], [65, "B"]);
  throws(() => builtins.int("4x"), (e: unknown) => e instanceof PyError && e.pyType === "ValueError");
});

Deno.test("re as a locustfile reads a token, an id or a list out of a page", () => {
  const re = MODULES.re as any;
  const page = '<form><input name="authenticity_token" value="t0k3n"></form>\nId: 42\nid: 7';
  assertEquals(re.search('name="authenticity_token" value="([^"]*)"', page).group(1), "t0k3n");
  assertEquals(re.search(String.raw`(?P<key>id): (?P<n>\d+)`, page, new Kw({ flags: re.I })).groupdict(), {
    key: "Id",
    n: "42",
  });
  assertEquals(re.search(String.raw`(?i)ID: (\d+)\Z`, page).group(1), "7");
  assertEquals(re.match("id", page), null);
  assertEquals(re.fullmatch(String.raw`\d+`, "123").group(), "123");
  assertEquals(re.findall(String.raw`(\w+): (\d+)`, page), [["Id", "42"], ["id", "7"]]);
  assertEquals(re.sub(String.raw`(\d+)`, String.raw`<\1>`, "a1b22", 1), "a<1>b22");
  assertEquals(re.compile(",\\s*").split("a, b,c"), ["a", "b", "c"]);
  assertEquals(re.split("(-)", "a-b", new Kw({ maxsplit: 1 })), ["a", "-", "b"]);
  throws(() => re.search("(", "x"), (e: unknown) => e instanceof PyError && e.pyType === "error");
});

Deno.test("json.load reads a data file beside the locustfile", () => {
  const path = Deno.makeTempFileSync({ suffix: ".json" });
  Deno.writeTextFileSync(path, '{"products": [{"id": 1}]}');
  assertEquals((MODULES.json as any).load(open(path)), { products: [{ id: 1 }] });
});

Deno.test("datetime, base64, hashlib and hmac as a locustfile signs and dates its requests", () => {
  const { datetime: dt, base64, hashlib, hmac } = MODULES as any;
  const day = dt.datetime(2026, 11, 27, 5, 8, 37, 123456);
  assertEquals(day.isoformat(), "2026-11-27T05:08:37.123456");
  assertEquals(str(day), "2026-11-27 05:08:37.123456");
  assertEquals(day.strftime("%Y-%m-%d %H:%M:%S.%f %%"), "2026-11-27 05:08:37.123456 %");
  const week = dt.timedelta(new Kw({ days: 7, hours: 1 }));
  assertEquals(sub(day, week).strftime("%Y%m%d%H"), "2026112004");
  assertEquals(add(day, dt.timedelta(0, 30)).isoformat(), "2026-11-27T05:09:07.123456");
  assertEquals(sub(day, sub(day, week)).total_seconds(), 7 * 86400 + 3600);
  assertEquals(dt.datetime.now(dt.timezone.utc).isoformat().endsWith("+00:00"), true);
  ok(Math.abs(dt.datetime.utcnow().timestamp() - Date.now() / 1000) < 5);
  const basic = method(base64.b64encode(method("alice:secret", "encode")), "decode");
  assertEquals(basic, "YWxpY2U6c2VjcmV0");
  assertEquals(method(base64.b64decode(basic), "decode"), "alice:secret");
  assertEquals(method(base64.urlsafe_b64encode("\u00ff\u00ff"), "decode"), "w7_Dvw==");
  assertEquals(hashlib.md5(method("x", "encode")).hexdigest(), "9dd4e461268c8034f5c8564e155c67a6");
  const h = hashlib.sha256();
  h.update("a"), h.update("bc");
  assertEquals(h.hexdigest(), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  assertEquals(
    hmac.new("key", "The quick brown fox jumps over the lazy dog", hashlib.sha256).hexdigest(),
    "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
  );
});

Deno.test("collections as listeners count with it: defaultdict, Counter, namedtuple; int() is 0", () => {
  const { defaultdict, Counter, namedtuple, OrderedDict } = MODULES.collections as any;
  const counts = defaultdict(builtins.int);
  setitem(counts, "a", add(getitem(counts, "a"), 1));
  // A bool counts as an int in a tally (`failed + (exception is not None)`).
  assertEquals([add(2, true), add(false, 3), add(true, true)], [3, 3, 2]);
  throws(() => add("a", 1), /unsupported operand types for \+: str and int/);
  // id(): one int an object for its life (`"user-" + str(id(self) % 1000)`), another for another.
  const [a, b] = [{}, {}];
  ok(
    builtins.id(a) === builtins.id(a) && builtins.id(a) !== builtins.id(b) &&
      Number.isInteger(builtins.id(a) % 1000),
  );
  assertEquals([str(counts), getitem(defaultdict(builtins.list), "x")], ["{'a': 1}", []]);
  const seen = Counter(["x", "y", "x"]);
  assertEquals([getitem(seen, "x"), getitem(seen, "z"), str(seen)], [2, 0, "{'x': 2, 'y': 1}"]);
  const Step = namedtuple("Step", "users dwell");
  const step = Step(10, new Kw({ dwell: 5 }));
  assertEquals([step.users, getitem(step, 1), str(OrderedDict())], [10, 5, "{}"]);
  assertEquals([builtins.int(), builtins.float()], [0, 0]);
  assertEquals(method(seen, "most_common", 1), [["x", 2]]);
  const recent = (MODULES.collections as any).deque([1, 2, 3], 2);
  method(recent, "append", 4), method(recent, "appendleft", 0);
  assertEquals([...recent, method(recent, "popleft")], [0, 3, 0]);
});

Deno.test("a seeded random draws CPython's numbers: seed, random, randint, choice, sample, choices, shuffle", () => {
  const random = MODULES.random as any;
  random.seed(42);
  // What CPython 3.11 draws after random.seed(42) and of random.Random("abc").
  assertEquals(
    [random.random(), random.randint(1, 100), random.choice("xyz"), random.sample(["a", "b", "c", "d"], 4)],
    [0.6394267984578837, 4, "z", ["c", "a", "d", "b"]],
  );
  assertEquals(random.choices(["hot", "cold"], new Kw({ weights: [3, 1], k: 4 })), [
    "hot",
    "hot",
    "cold",
    "hot",
  ]);
  assertEquals(random.sample(builtins.range(1000), 7), [432, 32, 30, 95, 223, 238, 517]);
  const r = random.Random("abc"), l = builtins.range(10);
  r.shuffle(l);
  assertEquals([l, r.uniform(1, 2), random.Random(2 ** 40 + 5).random()], [
    [4, 3, 0, 9, 1, 2, 6, 5, 7, 8],
    1.0769741606108483,
    0.5043802970418443,
  ]);
  // A float's seed is CPython's hash of it (3.5 is 7 * 2**60 modulo 2**61 - 1), as random.seed(3.5) reads it.
  assertEquals([3.5, 0.1, 1e-300].map((s) => random.Random(s).random()), [
    0.3039190124834461,
    0.8062579873336703,
    0.43684087591810306,
  ]);
  random.seed();
});

Deno.test("a csv.reader reads its rows again after its file's seek(0), as Python's reads on", () => {
  const path = Deno.makeTempFileSync({ suffix: ".csv" });
  Deno.writeTextFileSync(path, "a,1\nb,2\n");
  const f = open(path) as any;
  const rows = (MODULES.csv as any).reader(f);
  assertEquals([rows.next().value, rows.next().value, rows.next().done], [["a", "1"], ["b", "2"], true]);
  method(f, "seek", 0);
  assertEquals(rows.next().value, ["a", "1"]);
});

Deno.test("the standard library teams reach for: urllib.parse, secrets, copy, functools.wraps", () => {
  const { urllib, secrets, copy, functools, statistics } = MODULES as any;
  // A listener's own numbers: the median of an even count is its middle two's mean, as Python's.
  assertEquals([statistics.median([3, 1, 2]), statistics.median([4, 1, 3, 2]), statistics.mean([1, 2])], [
    2,
    2.5,
    1.5,
  ]);
  const { quote, quote_plus, urlencode } = urllib.parse;
  assertEquals([
    quote("a b/c~é"),
    quote("a/b", ""),
    quote_plus("a b&c"),
    quote("a b/c", new Kw({ safe: "" })),
  ], [
    "a%20b/c~%C3%A9",
    "a%2Fb",
    "a+b%26c",
    "a%20b%2Fc",
  ]);
  // A bytes slice is bytes (`b'user'`), as Python's.
  assertEquals(str(slice(new TextEncoder().encode("user:x"), 0, 4)), "b'user'");
  assertEquals(urlencode({ q: "red shoes", n: 2 }), "q=red+shoes&n=2");
  assertEquals(urlencode([["k", ["1", "2"]]], new Kw({ doseq: true })), "k=1&k=2");
  ok(/^[0-9a-f]{8}$/.test(secrets.token_hex(4)) && ["a", "b"].includes(secrets.choice(["a", "b"])));
  const template = { items: [{ sku: "a" }] }, deep = copy.deepcopy(template), shallow = copy.copy(template);
  deep.items.push({ sku: "b" });
  assertEquals([template.items.length, shallow.items === template.items], [1, true]);
  const task = Object.assign(() => 1, { locustWeight: 3 });
  assertEquals(functools.wraps(task)(() => 2).locustWeight, 3);
});

Deno.test("format specs as Python reads them: bases, #, signs, = alignment, _ grouping, e and g", () => {
  const cases: Array<[unknown, string]> = [[7, "#x"], [255, "X"], [5, "b"], [-3.5, "08.2f"], [3.5, "+.1f"]];
  cases.push([12345.678, "e"], [0.0001234, "g"], [123456789, "g"], [-42, "=8d"], [1234567.891, "_.2f"]);
  cases.push(["abcdef", ".3"], [0.5, ".2"], [97, "c"], [12, "+05d"]);
  // What CPython 3.11's format() gives for each.
  assertEquals(
    cases.map(([v, spec]) => format(v, spec)).join("|"),
    "0x7|FF|101|-0003.50|+3.5|1.234568e+04|0.0001234|1.23457e+08|-     42|1_234_567.89|abc|0.5|a|+0012",
  );
  assertEquals(mod("%x|%#o|%+d|% d|%e", tuple(255, 8, 3, 4, 1234.5)), "ff|0o10|+3| 4|1.234500e+03");
  assertEquals([format(5, ">05d"), format(-5, ">05d")], ["00005", "000-5"]);
  // Keyword-only parameters after *args take no positional argument.
  assertEquals(args(["json"], ["sep"], ["/"], true, false, 0), ["/", ["json"]]);
});

Deno.test("round as Python's: a tie to the even neighbour, the double's exact value; a method read is bound", () => {
  const { round, max, isinstance, int } = builtins as any;
  assertEquals(
    [round(2.5), round(3.5), round(-2.5), round(0.5), round(2.675, 2), round(0.125, 2), round(1234, -2)],
    [2, 4, -2, 0, 2.67, 0.12, 1200],
  );
  const d = { b: 2, a: 3, c: 1 };
  assertEquals([
    max(d, new Kw({ key: bound(d, "get") })),
    (bound(["x", "y"], "index") as (x: string) => number)("y"),
  ], ["a", 1]);
  assertEquals([bound({ count: 7 }, "count"), isinstance(true, int)], [7, true]);
});
