import { deepStrictEqual as assertEquals, ok as assert, throws } from "node:assert/strict";
import { CallKindNeeded, concurrencySteps, ghzRun, type MethodData, readConfig } from "./config.ts";
import { parseAttackArgs } from "../attack/args.ts";
import { UsageError } from "../usage_error.ts";
import { GREETER_PROTO } from "../../tests/fixtures/node_greeter.ts";
import { findMethod, type GrpcMethod, loadProtoFile } from "../../runner/http/grpc/schema.ts";

/** The attack flags of ghz's options. */
const ghzFlags = (config: Record<string, unknown>) => ghzRun(config).attack;
/** A method as the server's reflection gives it: messages `In` and `Out`, a unary call or a client stream. */
const reflectedAs = (clientStreaming: boolean): MethodData => ({
  method: {
    requestType: { name: "In" },
    responseType: { name: "Out" },
    clientStreaming,
  } as unknown as GrpcMethod,
});
const UNARY = reflectedAs(false);

Deno.test("a host without its port is dialed as grpc-go dials it: dns:/// at 443, else no address", () => {
  const target = (host: string) => ghzFlags({ host, call: "a.B.C", insecure: true })[0];
  assertEquals(target("dns:///localhost"), "grpc://localhost:443");
  assertEquals(["localhost", "[::1]", "10.0.0.1"].map(target), Array(3).fill("grpc://255.255.255.255:1"));
  throws(() => target("http://h:1"), /not HOST:PORT/);
});

Deno.test("a --call with a leading dot is called without it, and reported as given, as ghz does", () => {
  const run = ghzRun({ host: "h:1", call: ".a.B.C", insecure: true });
  assertEquals([run.attack[run.attack.indexOf("--call") + 1], run.options?.call], ["a.B.C", ".a.B.C"]);
  // ghz's --debug FILE: the run's log of its calls.
  assertEquals(ghzFlags({ host: "h:1", debug: "d.log" }).slice(1, 3), ["--log", "d.log"]);
});

Deno.test("ghz's example config becomes the flags it stands for, with ghz's defaults", () => {
  const config = {
    proto: "/path/to/greeter.proto",
    call: "helloworld.Greeter.SayHello",
    total: 2000,
    concurrency: 50,
    data: { name: "Joe" },
    metadata: { foo: "bar" },
    "import-paths": ["/path/to/protos"],
    host: "0.0.0.0:50051",
    insecure: true,
  };
  assertEquals(ghzFlags(config), [
    "grpc://0.0.0.0:50051",
    "--call",
    "helloworld.Greeter.SayHello",
    "--proto",
    "/path/to/greeter.proto",
    "-O",
    "summary",
    "-n",
    "2000",
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
    "-i",
    "/path/to/protos",
    "-i",
    ".",
    "-b",
    '{"name":"Joe"}',
    "-H",
    "foo: bar",
  ]);
  const parsed = parseAttackArgs(
    ghzFlags({ ...config, total: undefined, connections: 4, skipTLS: true, insecure: false, cpus: 1 }),
    { openFileLimit: 1024 },
  );
  assertEquals([
    parsed.config.url,
    parsed.config.protocol,
    (parsed.config as { connections?: number }).connections,
    parsed.config.concurrency,
    parsed.config.streams,
    parsed.config.workers,
    parsed.config.model,
    (parsed.config as { requests?: number }).requests,
    parsed.config.tls?.insecure,
  ], ["https://0.0.0.0:50051/", "h2", 4, 50, 13, 1, "count", 200, true]);
});

Deno.test("an option loadlab would run otherwise is refused with exit 2; no host is an error", () => {
  throws(
    () => ghzFlags({ host: "h:1", async: true, duration: "1s" }),
    (e) =>
      e instanceof UsageError && e.exitCode === 2 &&
      /^--async beside a duration without --rps: not/.test(e.message),
  );
  // At its default it is ghz's own run: accepted.
  assertEquals(
    ghzFlags({ host: "h:1", async: false, skipFirst: "0" })[0],
    "grpc" + "s://h:1",
  );
  // grpc-go's :authority: --authority's in cleartext (ignored over TLS), --cname's over TLS.
  const host = (config: Record<string, unknown>) => ghzFlags({ host: "h:1", ...config }).join(" ");
  assertEquals(host({ insecure: true, authority: "api.test" }).includes("-H host: api.test"), true);
  assertEquals(host({ authority: "api.test" }).includes("host:"), false);
  assertEquals([/--sni api.test /, /-H host: api.test/].map((r) => r.test(host({ cname: "api.test" }))), [
    true,
    true,
  ]);
  // grpc-go drops metadata under its reserved names; the others go as given.
  const sent = host({
    insecure: true,
    metadata: { "User-Agent": "me", "grpc-timeout": "1S", "X-Team": "perf" },
  });
  assertEquals([/User-Agent/i, /grpc-timeout/, /-H X-Team: perf/].map((r) => r.test(sent)), [
    false,
    false,
    true,
  ]);
  // A config file's key ghz does not know is ignored, as ghz ignores it.
  assertEquals(ghzFlags({ host: "h:1", nope: 1 })[0], "grpcs://h:1");
  throws(() => ghzFlags({ call: "a.B.C" }), /--host \(HOST:PORT\) is missing/);
});

Deno.test("ghz's randomString, randomInt and UUID templates become placeholders; its others are named", () => {
  const flags = ghzFlags({
    host: "h:1",
    data: { name: "{{randomString 8}}", count: "{{randomInt 1 10}}" },
    metadata: { "x-id": "id-{{randomInt 5 6}}", "x-req": "{{.UUID}}", "x-new": "{{ newUUID }}" },
  });
  assertEquals(flags.slice(flags.indexOf("-b"), flags.indexOf("-b") + 8), [
    "-b",
    // A config's data as ghz re-encodes it: its keys sorted.
    '{"count":"{{ $randomNumber(1,9) }}","name":"{{ $randomString(8) }}"}',
    "-H",
    "x-id: id-{{ $randomNumber(5,5) }}",
    "-H",
    "x-req: {{ $uuid(request) }}",
    "-H",
    "x-new: {{ $uuid() }}",
  ]);
  // A worker's ID (the test's name before it) and the call's time in ghz's four forms, read once a call.
  const timed = ghzFlags({
    host: "h:1",
    name: "api",
    metadata: { w: "{{.WorkerID}}", t: "{{.Timestamp}} {{.TimestampUnix}}", u: "{{.TimestampUnixMilli}}" },
    data: { n: "{{.TimestampUnixNano}}" },
  });
  assertEquals(timed.slice(timed.indexOf("-b"), timed.indexOf("-b") + 8), [
    "-b",
    '{"n":"{{ $now(ns, request) }}"}',
    "-H",
    "w: api:{{ $worker() }}",
    "-H",
    "t: {{ $now(rfc3339, request) }} {{ $now(s, request) }}",
    "-H",
    "u: {{ $now(ms, request) }}",
  ]);
  // ghz's randomInt: a negative min is 0, a max of 0 or less is 1.
  const body = (data: unknown) => ghzFlags({ host: "h:1", data }).find((f) => f.startsWith("{"));
  assertEquals(
    body({ a: "{{randomInt -5 3}}", b: "{{randomInt 0 0}}" }),
    '{"a":"{{ $randomNumber(0,2) }}","b":"{{ $randomNumber(0,0) }}"}',
  );
});

Deno.test("Go's functions and blocks run before the load: text once, a column where calls differ", () => {
  const run = (config: Record<string, unknown>) => {
    const flags = ghzFlags({ host: "h:1", call: "a.B.C", total: 3, ...config });
    const file = flags[flags.indexOf("--data-file") + 1];
    const rows = flags.includes("--data-file") ? Deno.readTextFileSync(file).trim().split("\n") : [];
    return [flags.find((f) => f.startsWith("{")), flags.find((f) => f.startsWith("x:")), ...rows];
  };
  // Each call's own value in its row; a constant one is text; a value with a comma quoted in the CSV.
  assertEquals(
    run({ data: '{"a":"{{printf `%03d,%s` .RequestNumber .MethodName}}","b":"{{len .MethodName}}"}' }),
    [
      '{"a":"{{ Drawn0 }}","b":"{{ Drawn1 }}"}',
      undefined,
      "RequestNumber,LeftBraces,Drawn0,Drawn1",
      '0,{{,"000,C",1',
      '1,{{,"001,C",1',
      '2,{{,"002,C",1',
    ],
  );
  assertEquals(run({ data: { b: "{{len .MethodName}}" } })[0], '{"b":"1"}');
  // Go's JSON writes the data's `<` as \u003c before the template runs: html leaves it so.
  assertEquals(run({ data: { b: "{{.MethodName}} {{html `<b>`}}" } })[0], '{"b":"C \\u003cb\\u003e"}');
  // A -D file is a template before it is JSON: its actions' own quotes are Go's.
  const file = Deno.makeTempFileSync({ suffix: ".json" });
  Deno.writeTextFileSync(file, '{"a":"{{printf "%02d" .RequestNumber}}"}');
  assertEquals(run({ "data-file": file }).slice(0, 4), [
    '{"a":"{{ Drawn0 }}"}',
    undefined,
    "RequestNumber,LeftBraces,Drawn0",
    "0,{{,00",
  ]);
  Deno.removeSync(file);
  // Data with no action at its top is sent as written; metadata with none is filled once.
  const block = '{"x":"{{if eq .RequestNumber 0}}first{{else}}later{{end}}"}';
  assertEquals(run({ data: block, metadata: block }), [
    block.replace("{{", "\\u007b{").replaceAll("{{", "\\u007b{"),
    "x: first",
  ]);
  // randomString 0 is 2 to 16 letters a call, drawn in its row.
  const letters = run({ data: { a: "{{randomString 0}}" } });
  assertEquals(letters[0], '{"a":"{{ Drawn0 }}"}');
  assert(letters.slice(3).every((r) => /^\d,\{\{,[a-zA-Z0-9]{2,16}$/.test(r!)), letters.join(" "));
  // The values read as each call runs are whole actions, the top's or a named template's called with the dot.
  throws(() => run({ data: { a: "{{printf `%s` .WorkerID}}" } }), /\.WorkerID.*an action alone/);
  // .UUID and .Timestamp* in a function or block: a row's own, a UUID a call, the same in data and metadata.
  const uuids = run({
    data: '{"a":"{{.UUID | printf `%.8s`}}","b":"{{.UUID}}","t":"{{with .TimestampUnix}}{{.}}{{end}}"}',
    metadata: { x: "{{.UUID | printf `%s`}}" },
  });
  assertEquals(uuids.slice(0, 3), [
    '{"a":"{{ Drawn0 }}","b":"{{ Drawn1 }}","t":"{{ Drawn2 }}"}',
    "x: {{ Drawn3 }}",
    "RequestNumber,LeftBraces,Drawn0,Drawn1,Drawn2,Drawn3",
  ]);
  const cells = uuids.slice(3).map((r) => r!.split(","));
  assertEquals([new Set(cells.map((c) => c[2])).size, new Set(cells.map((c) => c[3])).size], [3, 3]);
  for (const [, , short, uuid, unix, meta] of cells) {
    assert(/^[\da-f]{8}-[\da-f]{4}-4[\da-f]{3}-[89ab][\da-f]{3}-[\da-f]{12}$/.test(uuid), uuid);
    assertEquals([short, meta], [uuid.slice(0, 8), uuid]);
    assert(Math.abs(Number(unix) - Date.now() / 1000) < 60, unix);
  }
  // A unary list dealt a member a call: only a templated member's calls take a row, each its call's number.
  const proto = { proto: GREETER_PROTO, call: "helloworld.Greeter.Fail", total: 6 };
  const dealt = run({ ...proto, data: '[{"code":0},{"code":3,"message":"{{.RequestNumber}}"},{"code":4}]' });
  // The rows are those of the count's calls: a worker's stripe starts at its share of the calls.
  assertEquals(dealt.slice(3).map((r) => r!.split(",")[0]), ["1", "4"]);
  const named = "{{define `t`}}t-{{.UUID}}{{end}}{{.RequestNumber}}/{{template `t` .}}";
  assertEquals(run({ data: { a: named } })[0], '{"a":"{{ RequestNumber }}/t-{{ $uuid(request) }}"}');
});

Deno.test("ghz's call data of the method: its messages' names and kinds, by its schema or reflection", () => {
  const data = { name: "{{.InputName}}>{{.OutputName}} {{.IsClientStreaming}}/{{.IsServerStreaming}}" };
  const body = (config: Record<string, unknown>, reflected?: MethodData) =>
    ghzRun({ host: "h:1", data, ...config }, reflected).attack.find((f) => f.startsWith("{"));
  const collect = { proto: GREETER_PROTO, call: "helloworld.Greeter.Collect" };
  // As Go's JSON writes the data before the template runs: its `>` escaped.
  assertEquals(body(collect), '{"name":"HelloRequest\\u003eHelloReply true/false"}');
  assertEquals(body({ call: "a.B/C" }, UNARY), '{"name":"In\\u003eOut false/false"}');
  throws(() => body({ call: "a.B/C" }), CallKindNeeded);
  // .UUID is one a call, metadata and data; a client stream's messages filled apart each draw their own.
  const uuid = { data: { name: "{{.UUID}}" }, metadata: { id: "{{.UUID}}" }, "stream-call-count": 2 };
  const flags = (dynamic: boolean) =>
    ghzFlags({ host: "h:1", ...collect, ...uuid, "stream-dynamic-messages": dynamic }).filter((f) =>
      f.includes("$")
    );
  assertEquals(flags(false), [
    '[{"name":"{{ $uuid(request) }}"},{"name":"{{ $uuid(request) }}"}]',
    "id: {{ $uuid(request) }}",
  ]);
  assertEquals(flags(true), [
    '[{"name":"{{ $uuid() }}"},{"name":"{{ $uuid() }}"}]',
    "id: {{ $uuid(request) }}",
  ]);
  // A -D file's one message whose action writes a bare value, past its end: its text again, then filled.
  const file = Deno.makeTempFileSync({ suffix: ".json" });
  Deno.writeTextFileSync(file, '{"name":"{{.MethodName}}","count":{{randomInt 7 8}}}');
  const dynamic = { ...collect, "data-file": file, "stream-call-count": 2, "stream-dynamic-messages": true };
  assertEquals(
    ghzFlags({ host: "h:1", ...dynamic }).find((f) => f.startsWith("[")),
    '[{"name":"Collect","count":{{ $randomNumber(7,7) }}},{"name":"Collect","count":{{ $randomNumber(7,7) }}}]',
  );
  Deno.removeSync(file);
});

Deno.test("a template Go cannot parse is ghz's error (exit 1); one that fails to run leaves the text as written", () => {
  const body = (data: string) => ghzRun({ host: "h:1", data }).attack.find((f) => f.startsWith("{"));
  const goError = (data: string) => {
    try {
      body(data);
    } catch (err) {
      return [(err as UsageError).exitCode ?? 1, (err as Error).message];
    }
  };
  assertEquals(goError('{"a":"{{foo 1}}"}'), [
    1,
    '--data: template: call_template_data:1: function "foo" not defined',
  ]);
  assertEquals(goError('{"a":"{{.RequestNumber"}'), [
    1,
    "--data: template: call_template_data:1: unclosed action",
  ]);
  assertEquals(goError('{"a":"{{ }}"}'), [
    1,
    "--data: template: call_template_data:1: missing value for command",
  ]);
  assertEquals(goError('{"a":"{{$x}}"}'), [
    1,
    '--data: template: call_template_data:1: undefined variable "$x"',
  ]);
  // Go runs the actions in turn: a field the call data lacks, randomInt's empty range (Intn panics), a
  // function's wrong arguments, a field given one: the whole text goes unfilled, its `{{` escaped in JSON.
  const unfilled = [
    ".Nope",
    ".RequestNumber.X",
    ".WorkerID 7",
    "randomInt 5 5",
    "randomInt 9 2",
    "randomString",
    "newUUID 1",
  ];
  for (const action of [...unfilled, ".RequestNumber 1", "nil"]) {
    const data = `{"a":"{{.RequestNumber}}-{{${action}}}"}`;
    assertEquals(body(data), data.replaceAll("{{", "\\u007b{"));
  }
  // A unary call's list has its messages filled apart: one that fails leaves only itself unfilled. A
  // client stream's is one text, all unfilled. By reflection, the kind is the server's to say.
  const list = (clientStream?: boolean) =>
    ghzRun(
      { host: "h:1", data: '[{"a":"{{newUUID}}"}, {"a":"{{.Nope}}"}]' },
      clientStream === undefined ? undefined : reflectedAs(clientStream),
    ).attack.find((f) => f[0] === "[");
  assertEquals(list(false), '[{"a":"{{ $uuid() }}"},{"a":"{{ LeftBraces }}.Nope}}"}]');
  assertEquals(list(true), '[{"a":"\\u007b{newUUID}}"},{"a":"\\u007b{.Nope}}"}]');
  throws(() => list(), CallKindNeeded);
  const dynamic = ghzRun({
    host: "h:1",
    data: '[{"a":"{{.Nope}}"}, {"a":"x"}]',
    "stream-dynamic-messages": true,
  });
  assertEquals(dynamic.attack.find((f) => f[0] === "["), '[{"a":"{{ LeftBraces }}.Nope}}"},{"a":"x"}]');
  // Data whose only actions are comments is sent as written too, comments and all; beside an action, a
  // comment is nothing. Trim markers take the spaces beside them.
  assertEquals(body('{"a":"{{/* c */}}x"}'), '{"a":"\\u007b{/* c */}}x"}');
  assertEquals(
    body('{"a":"{{randomInt 1 3}} {{/* c */}} x {{- newUUID -}} y"}'),
    '{"a":"{{ $randomNumber(1,2) }}  x{{ $uuid() }}y"}',
  );
  // ghz's metadata unfilled goes as written, each `{{` from a data column; its parse errors are ghz's.
  const metadata = (m: string) => () => ghzRun({ host: "h:1", metadata: m });
  const attack = metadata('{"x":"{{.Nope}} {{.UUID}}"}')().attack;
  assert(attack.includes("x: {{ LeftBraces }}.Nope}} {{ LeftBraces }}.UUID}}"));
  const file = attack[attack.indexOf("--data-file") + 1];
  assertEquals(Deno.readTextFileSync(file), "RequestNumber,LeftBraces\n0,{{\n");
  throws(
    metadata('{"x":"{{nope}}"}'),
    (e) => e instanceof UsageError && !e.exitCode && /"nope" not defined/.test(e.message),
  );
});

Deno.test("a ghz TOML config is read as its JSON one is", async () => {
  const file = await Deno.makeTempFile({ suffix: ".toml" });
  try {
    await Deno.writeTextFile(
      file,
      [
        'host = "127.0.0.1:50051"',
        "insecure = true",
        'call = "helloworld.Greeter.SayHello"',
        "total = 200",
        "concurrency = 8",
        "connections = 2",
        'format = "pretty"',
        "",
        "[data]",
        'name = "Joe"',
        "",
        "[metadata]",
        'foo = "bar"',
      ].join("\n"),
    );
    assertEquals(JSON.parse(JSON.stringify(readConfig(file, "--config"))), {
      host: "127.0.0.1:50051",
      insecure: true,
      call: "helloworld.Greeter.SayHello",
      total: 200,
      concurrency: 8,
      connections: 2,
      format: "pretty",
      data: { name: "Joe" },
      metadata: { foo: "bar" },
      // ghz's config reader's own defaults.
      "concurrency-start": 1,
      "concurrency-step": 0,
    });
    // Its tables are objects of no prototype, read as the flags they stand for.
    assertEquals(ghzFlags(readConfig(file, "--config")).join(" ").includes("-H foo: bar"), true);
    await Deno.writeTextFile(file, "host = ");
    throws(() => readConfig(file, "--config"), /not TOML \(/);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("-B's binary data: one serialized message, or several each prefixed by its length, as ghz reads it", () => {
  const file = Deno.makeTempFileSync();
  const config = {
    host: "h:1",
    proto: GREETER_PROTO,
    call: "helloworld.Greeter.SayHello",
    "binary-file": file,
  };
  const data = () => {
    const flags = ghzFlags(config);
    return flags[flags.indexOf("-b") + 1];
  };
  try {
    // One HelloRequest, name "hi bin": its first byte read as a length runs past the end.
    Deno.writeFileSync(file, Uint8Array.of(0x0a, 6, ...new TextEncoder().encode("hi bin")));
    assertEquals(data(), '{"name":"hi bin"}');
    // Two, each prefixed: {name: "a"} and {count: 7}, taken in turn by a unary call.
    Deno.writeFileSync(file, Uint8Array.of(3, 0x0a, 1, 0x61, 2, 0x10, 7));
    assertEquals(data(), '[{"name":"a"},{"count":7}]');
    // Without a schema, against the server's reflection: asked for first, then read with its method.
    throws(() => ghzFlags({ ...config, proto: undefined }), CallKindNeeded);
    const reflected = { method: findMethod(loadProtoFile(GREETER_PROTO, []), config.call) };
    const flags = ghzRun({ ...config, proto: undefined }, reflected).attack;
    assertEquals(flags[flags.indexOf("-b") + 1], '[{"name":"a"},{"count":7}]');
    Deno.writeFileSync(file, Uint8Array.of(0xff, 0xff));
    throws(() => data(), /--binary-file: .*binary data/);
    // No message at all: ghz v0.93 panics, as on -d '[]'.
    Deno.writeFileSync(file, new Uint8Array());
    throws(() => data(), (e) => e instanceof UsageError && /--binary-file: no message/.test(e.message));
  } finally {
    Deno.removeSync(file);
  }
});

Deno.test("a config's keys as ghz's config reader defaults them: concurrency-start 1, concurrency-step 0", async () => {
  const file = await Deno.makeTempFile({ suffix: ".yaml" });
  try {
    const schedule = ["concurrency-schedule: step", "concurrency-end: 6", "concurrency-step-duration: 200ms"];
    await Deno.writeTextFile(file, ["host: h:1", ...schedule].join("\n"));
    throws(() => ghzFlags(readConfig(file, "--config")), (e) => e instanceof UsageError && !e.exitCode);
    await Deno.writeTextFile(file, ["host: h:1", ...schedule, "concurrency-step: 2"].join("\n"));
    const steps = concurrencySteps(readConfig(file, "--config"))?.map((s) => s.concurrency);
    assertEquals(steps, [1, 3, 5, 7]);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("a step or line load schedule sets the rate, --rps beside it ignored as ghz ignores it", () => {
  const flags = ghzFlags({
    host: "h:1",
    rps: 100,
    "load-schedule": "step",
    "load-start": 50,
    "load-step": 50,
    "load-step-duration": "500ms",
    duration: "1s",
  });
  assertEquals([flags.includes("-R"), flags[flags.indexOf("--phases") + 1]], [false, "500ms@50,500ms@100"]);
  // As ghz's pacer: a max duration mid-step counts that step's part at the end rate from the step's start,
  // the difference sent at once (10 + 0.5 s x 20 by 1.5 s, then 10 + 0.5 s x 50), or, falling, waited out.
  const line = (start: number, step: number, end: number) =>
    ghzFlags({
      host: "h:1",
      "load-schedule": "line",
      "load-start": start,
      "load-step": step,
      "load-end": end,
      "load-max-duration": "1500ms",
      duration: "3s",
    }).find((f) => f.includes("ms@"));
  assertEquals(line(10, 10, 50), "1000ms@10,500ms@20,1ms@15000,1499ms@50");
  assertEquals(line(50, -10, 10), "1000ms@50,500ms@40,1500ms@0");
});

Deno.test("--reflect-metadata goes with the reflection calls only", () => {
  const config = { host: "h:1", call: "a.B.C", "reflect-metadata": { authorization: "Bearer t" } };
  const flags = ghzFlags(config);
  const parsed = parseAttackArgs(flags, { openFileLimit: 1024 });
  assertEquals([parsed.grpc?.reflect, parsed.grpc?.reflectMetadata, parsed.grpc?.metadata], [
    true,
    { authorization: "Bearer t" },
    [],
  ]);
});

Deno.test("ghz's concurrency schedules as the calls in flight from each instant, -c their most", () => {
  const step = { "concurrency-schedule": "step", "concurrency-start": 2, "concurrency-step": 3 };
  const at = (config: Record<string, unknown>) =>
    concurrencySteps(config)?.map((s) => [s.atMs, s.concurrency]);
  // As ghz's ticker: past the end by a step it does not divide; to the end at the max duration.
  assertEquals(at({ ...step, "concurrency-end": 7, "concurrency-step-duration": "1s" }), [[0, 2], [1000, 5], [
    2000,
    8,
  ]]);
  assertEquals(
    at({
      ...step,
      "concurrency-end": 20,
      "concurrency-step-duration": "1s",
      "concurrency-max-duration": "2s",
    }),
    [[0, 2], [1000, 5], [2000, 20]],
  );
  assertEquals(at({ "concurrency-schedule": "line", "concurrency-start": 6, "concurrency-step": -2 }), [
    [0, 6],
    [1000, 4],
    [2000, 2],
    [3000, 0],
  ]);
  assertEquals(at({}), undefined);
  const flags = ghzFlags({
    host: "h:1",
    insecure: true,
    ...step,
    "concurrency-end": 7,
    "concurrency-step-duration": "1s",
  });
  assertEquals(
    flags.slice(flags.indexOf("--connections")),
    ["--connections", "1", "-c", "8", "--reflect"],
  );
  // Beside --rps or a load schedule, the ticks its stepped workers wait for (no attack rate or phases).
  const seven = { ...step, "concurrency-end": 7, "concurrency-step-duration": "1s" };
  const paced = ghzRun({ host: "h:1", ...seven, rps: 40 });
  assertEquals([paced.attack.includes("-R"), paced.tickPhases, paced.concurrencySteps?.length], [false, [[
    1,
    40,
  ]], 3]);
  assertEquals(ghzRun({ host: "h:1", ...seven }).tickPhases, undefined);
  const load = {
    "load-schedule": "step",
    "load-start": 5,
    "load-step": 5,
    "load-step-duration": "1s",
    rps: 9,
  };
  const loaded = ghzRun({ host: "h:1", ...seven, ...load, "load-end": 15, total: 30 });
  assertEquals([loaded.attack.includes("--phases"), loaded.attack.includes("-n"), loaded.tickPhases], [
    false,
    true,
    [[1000, 5], [1000, 10], [(14.5 * 1000) / 15, 15]],
  ]);
  throws(
    () => at({ "concurrency-schedule": "step", "concurrency-start": 1, "concurrency-step-duration": "1s" }),
    /over 10,000 steps/,
  );
  throws(
    () => at({ "concurrency-schedule": "step", "concurrency-end": 3 }),
    /--concurrency-schedule step: invalid concurrency step duration/,
  );
});

Deno.test("--stream-call-duration ends a stream's sends at ghz's time: with an interval, a count of them", () => {
  const data = (config: Record<string, unknown>) => {
    const flags = ghzFlags({ host: "h:1", data: [{ name: "a" }, { name: "b" }], ...config });
    return flags[flags.indexOf("-b") + 1];
  };
  const names = (n: number) => JSON.stringify(Array.from({ length: n }, (_, k) => ({ name: "ab"[k % 2] })));
  // Sends at 0, 20, 40 ... ms until 100 ms: 5 of --stream-call-count's 50.
  const timed = { "stream-call-duration": "100ms", "stream-interval": "20ms" };
  assertEquals(data({ ...timed, "stream-call-count": 50 }), names(5));
  // The data ends first: its 2 messages.
  assertEquals(data(timed), names(2));
  // With no interval the messages go at once: the time ends none of the data's, and sends as many as
  // fit in it with --stream-call-count, which loadlab does not.
  assertEquals(data({ "stream-call-duration": "100ms" }), names(2));
  throws(
    () => data({ "stream-call-duration": "100ms", "stream-call-count": 1000 }),
    (e) => e instanceof UsageError && e.exitCode === 2 && /--stream-interval/.test(e.message),
  );
});

Deno.test("a ghz config's values of another type than ghz's are its error, as Go decodes them", async () => {
  const dir = await Deno.makeTempDir();
  const read = (name: string, text: string) => {
    Deno.writeTextFileSync(`${dir}/${name}`, text);
    return readConfig(`${dir}/${name}`, "--config");
  };
  try {
    for (
      const bad of [
        '{"total":"30"}',
        '{"insecure":"true"}',
        '{"call":5}',
        '{"total":-1}',
        '{"metadata":"{}"}',
      ]
    ) {
      throws(() => read("c.json", bad), (e: Error) => e instanceof UsageError && /not Go's /.test(e.message));
    }
    throws(() => read("c.toml", 'concurrency = "4"'), /concurrency "4": not Go's uint/);
    throws(() => read("c.yaml", 'total: "30"'), /total "30": not Go's uint/);
    // A number past a double's range reads as Infinity, not as JSON's null.
    throws(() => read("c.json", '{"total":1e400}'), /total Infinity: not Go's uint/);
    // YAML 1.1 as Go reads it: yes is true; a number where text goes is its text.
    const defaults = { "concurrency-start": 1, "concurrency-step": 0 };
    assertEquals(read("c.yaml", "insecure: yes\nname: 5\ntimeout: 5s\nimport-paths: [a]\n"), {
      insecure: true,
      name: "5",
      timeout: "5s",
      "import-paths": ["a"],
      ...defaults,
    });
    // ghz's data: an object or a list of objects as Go decodes them; YAML's maps are Go's
    // map[interface{}]interface{}, made an object at the top only; TOML's [[data]] a list of another type.
    for (
      const [name, text, error] of [
        ["c.yaml", "data: [{name: a}]", /data: Data array contains unsupported type/],
        ["c.yaml", "data:\n  detail: {mood: HAPPY}", /data: json: unsupported type: map\[interface \{\}\]/],
        ["c.yaml", 'data: \'{"name":"x"}\'', /data: Unsupported type for Data/],
        ["c.toml", '[[data]]\nname = "a"', /data: Unsupported type for Data/],
        ["c.json", '{"data":[]}', /data: Data array must not be empty/],
        ["c.json", '{"data":[{"name":"a"},"b"]}', /data: Data array contains unsupported type/],
      ]
    ) throws(() => read(name as string, text as string), error as RegExp);
    assertEquals(read("c.yaml", "data: {name: a, ids: [1]}").data, { name: "a", ids: [1] });
    // null is Go's no value: the option as not given.
    assertEquals(read("c.json", '{"metadata":null,"data":null,"total":null,"call":"a.B.C"}'), {
      call: "a.B.C",
      ...defaults,
    });
    assertEquals(read("c.yaml", "metadata: ~\ntags:\ntimeout: ~\n"), defaults);
    throws(() => read("c.json", '{"timeout":null}'), /timeout null: not Go's duration/);
    assertEquals(JSON.stringify(read("c.toml", 'data = [{ name = "a" }]').data), '[{"name":"a"}]');
    assertEquals(read("c.json", '{"data":[{"detail":{"mood":"HAPPY"}}]}').data, [{
      detail: { mood: "HAPPY" },
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("--proto over --protoset beside it, as ghz reads the schema", () => {
  const flags = ghzFlags({ host: "h:1", proto: GREETER_PROTO, protoset: "/nonexistent.protoset" });
  assertEquals([flags.includes("--proto"), flags.includes("--protoset")], [true, false]);
});

Deno.test("--proto names a .proto file, as ghz requires; an empty one is none", () => {
  throws(
    () => ghzFlags({ host: "h:1", proto: "greeter.txt" }),
    /--proto greeter.txt: must have .proto ext/,
  );
  assertEquals(ghzFlags({ host: "h:1", proto: " " }).includes("--reflect"), true);
});

Deno.test("data is read as ghz reads it: a -D file's list whole or its first value, an Any's form", async () => {
  const dir = await Deno.makeTempDir();
  const data = (text: string, key = "data-file") => {
    Deno.writeTextFileSync(`${dir}/d.json`, text);
    const flags = ghzFlags({ host: "h:1", [key]: key === "data" ? text : `${dir}/d.json` });
    return flags[flags.indexOf("-b") + 1];
  };
  try {
    // Go's JSON decoder over a stream: the first value is the message, what follows it is never read.
    assertEquals(JSON.parse(data('{"name":"a"}\n{"name":"b"}\n')), { name: "a" });
    assertEquals(JSON.parse(data('{"name":"a"} xx')), { name: "a" });
    assertEquals(JSON.parse(data('[{"name":"a"},\n{"name":"b"}]\n')), [{ name: "a" }, { name: "b" }]);
    // A wrapper type's bare value (a StringValue's "asdf") stays JSON's string.
    assertEquals(data('"a<b"', "data"), '"a\\u003cb"');
    // A list is decoded whole; one that does not begin the file is a value no message is.
    throws(() => data('[{"name":"a"}]\n[{"name":"b"}]\n'), /--data-file: not JSON/);
    throws(() => data('  [{"name":"a"}]'), /--data-file: a list after a space: ghz cannot read it/);
    // -d is one JSON value, as ghz's flag reads it; a file of one message is a template first, its
    // unquoted action JSON once filled.
    throws(() => data('{"name":"a"} xx', "data"), /--data: not JSON/);
    assertEquals(data('{"count": {{.RequestNumber}}}'), '{"count": {{ RequestNumber }}}');
    throws(() => data('{"count": {{.RequestNumber}}}', "data"), /--data: not JSON/);
    // ghz's JSON reader reads an Any of protobuf's well-known types only when its JSON form is an object.
    const any = (type: string, value: string) =>
      data(`{"extra":{"@type":"type.googleapis.com/google.protobuf.${type}","value":${value}}}`, "data");
    throws(() => any("Duration", '"2s"'), /--data: an Any of google.protobuf.Duration: ghz cannot read it/);
    throws(() => any("StringValue", '"s"'), /google.protobuf.StringValue: ghz cannot read it/);
    assertEquals(JSON.parse(any("Struct", '{"a":1}')).extra.value, { a: 1 });
    assertEquals(JSON.parse(any("Value", "1")).extra.value, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a client stream's list past its end sends the values it drew again, as ghz fills it once a call", () => {
  const data = [{ name: "{{randomString 4}}" }, { name: "x{{randomInt 1 9}}-{{newUUID}}" }];
  const config = { proto: GREETER_PROTO, call: "helloworld.Greeter.Collect", data, "stream-call-count": 3 };
  const flags = ghzFlags({ ...config, host: "h:1", insecure: true, total: 5 });
  const body = JSON.parse(flags[flags.indexOf("-b") + 1]);
  assertEquals(body, [
    { name: "{{ Drawn0 }}" },
    { name: "x{{ Drawn1 }}-{{ Drawn2 }}" },
    { name: "{{ Drawn0 }}" },
  ]);
  // A column a draw, a row a call: fresh each call.
  const rows = Deno.readTextFileSync(flags[flags.indexOf("--data-file") + 1]).trim().split("\n");
  assertEquals([rows.length, rows[0]], [6, "RequestNumber,LeftBraces,Drawn0,Drawn1,Drawn2"]);
  assert(rows.slice(1).every((r) => /^\d,\{\{,[a-zA-Z0-9]{4},[1-8],[0-9a-f-]{36}$/.test(r)));
});
