import { deepStrictEqual as assertEquals, ok, throws } from "node:assert/strict";
import {
  add,
  builtins,
  format,
  getitem,
  Kw,
  mapping,
  method,
  mod,
  PyError,
  setitem,
  slice,
  str,
  sub,
} from "./py.ts";
import { MODULES } from "./py_modules.ts";

const { open } = builtins;

Deno.test("Python's values as a locustfile's helpers read them", () => {
  assertEquals(slice([1, 2, 3, 4], -2, null), [3, 4]);
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
  const { urllib, secrets, copy, functools } = MODULES as any;
  const { quote, quote_plus, urlencode } = urllib.parse;
  assertEquals([quote("a b/c~é"), quote("a/b", ""), quote_plus("a b&c")], [
    "a%20b/c~%C3%A9",
    "a%2Fb",
    "a+b%26c",
  ]);
  assertEquals(urlencode({ q: "red shoes", n: 2 }), "q=red+shoes&n=2");
  assertEquals(urlencode([["k", ["1", "2"]]], new Kw({ doseq: true })), "k=1&k=2");
  ok(/^[0-9a-f]{8}$/.test(secrets.token_hex(4)) && ["a", "b"].includes(secrets.choice(["a", "b"])));
  const template = { items: [{ sku: "a" }] }, deep = copy.deepcopy(template), shallow = copy.copy(template);
  deep.items.push({ sku: "b" });
  assertEquals([template.items.length, shallow.items === template.items], [1, true]);
  const task = Object.assign(() => 1, { locustWeight: 3 });
  assertEquals(functools.wraps(task)(() => 2).locustWeight, 3);
});
