import { deepStrictEqual as assertEquals, ok, rejects, throws } from "node:assert/strict";
import { parseAttackArgs } from "./args.ts";
import { inFlightLine, withGrpcCalls } from "./grpc_args.ts";
import { UsageError } from "../usage_error.ts";

const parse = (...argv: string[]) => parseAttackArgs(argv, { openFileLimit: 1024 });
const PROTO = new URL("../../examples/grpc/greeter.proto", import.meta.url).pathname;

Deno.test("grpc:// is h2c to its http: origin, grpcs:// h2 to https:; the flags are the call's source", () => {
  const p = parse(
    "grpc://127.0.0.1:50051",
    "--call",
    "helloworld.Greeter.SayHello",
    "--proto",
    PROTO,
    "-i",
    "a",
    "-i",
    "b",
    "-b",
    '{"name":"x"}',
    "-H",
    "X-User: ann",
    "-H",
    "trace-bin: \u00ff",
    "--streams",
    "8",
    "-n",
    "5",
  );
  assertEquals([p.config.url, p.config.protocol, p.config.streams, p.config.grpc], [
    "http://127.0.0.1:50051/",
    "h2c",
    8,
    {
      maxReceiveBytes: 4 * 1024 * 1024,
    },
  ]);
  assertEquals(p.grpc, {
    call: "helloworld.Greeter.SayHello",
    proto: PROTO,
    importPaths: ["a", "b"],
    protoset: undefined,
    reflect: undefined,
    reflectMetadata: {},
    message: '{"name":"x"}',
    metadata: [["x-user", "ann"], ["trace-bin", "\u00ff"]],
    maxSendBytes: undefined,
    names: [],
  });
  const tls = parse("grpcs://example.test:443", "--call", "a.B/C", "--reflect", "--max-receive", "100", "-k");
  assertEquals([tls.config.url, tls.config.protocol, tls.config.grpc?.maxReceiveBytes], [
    "https://example.test/",
    "h2",
    100,
  ]);
});

Deno.test("bad gRPC input is one usage error naming the fix", () => {
  const cases: [string[], RegExp][] = [
    [["grpc://127.0.0.1:1"], /needs --call/],
    [["grpc://127.0.0.1:1", "--call", "a.B/C", "--mix", "GET /"], /--mix is for HTTP/],
    [["grpc://127.0.0.1:1", "--call", "a.B/C", "--h2"], /--h2 is for HTTP/],
    [["http://127.0.0.1:1/", "--call", "a.B/C"], /--call needs a grpc:\/\/ or grpcs:\/\/ URL/],
    [["grpc://127.0.0.1:1", "--call", "a.B/C", "-H", "te: x"], /"te" cannot be metadata/],
    [["grpc://127.0.0.1:1", "--call", "a.B/C", "-H", "grpc-timeout: 1S"], /cannot be metadata/],
    [["grpc://127.0.0.1:1", "--call", "a.B/C", "-H", "novalue"], /expected "name: value"/],
  ];
  for (const [argv, expected] of cases) {
    throws(() => parse(...argv), (e) => e instanceof UsageError && expected.test(e.message));
  }
});

Deno.test("a gRPC --body-file is read as an HTTP one is: capped, a regular file, named when refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    using big = await Deno.open(`${dir}/big.json`, { create: true, write: true });
    await big.truncate(17 * 2 ** 20);
    const call = ["grpc://127.0.0.1:1", "--call", "a.B/C", "--body-file"];
    throws(
      () => parse(...call, `${dir}/big.json`),
      /^UsageError: --body-file ".*big\.json": is 17 MiB, over the cap/,
    );
    throws(
      () => parse(...call, "/dev/zero"),
      /--body-file "\/dev\/zero": is a character device.*give the path/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the call is found in the schema and its message encoded once; what does not fit is exit 2 naming it", async () => {
  const p = parse(
    "grpc://127.0.0.1:50051",
    "--call",
    "helloworld.Greeter/SayHello",
    "--proto",
    PROTO,
    "-b",
    '{"name":"x"}',
    "-H",
    "k-bin: hi",
    "--timeout",
    "250ms",
  );
  const config = await withGrpcCalls(p.config, p.grpc!);
  const [spec] = config.requestMix;
  assertEquals([spec.method, spec.path, spec.name], [
    "POST",
    "/helloworld.Greeter/SayHello",
    "helloworld.Greeter/SayHello",
  ]);
  assertEquals(spec.headers, [["content-type", "application/grpc"], ["te", "trailers"], [
    "grpc-timeout",
    "250m",
  ], ["k-bin", "aGk"]]);
  assertEquals([...spec.body!], [0, 0, 0, 0, 3, 0x0a, 1, 0x78]);
  const zipped = parse(
    "grpc://127.0.0.1:50051",
    "--call",
    "helloworld.Greeter/SayHello",
    "--proto",
    PROTO,
    "-b",
    '{"name":"x"}',
    "--compress",
    "gzip",
  );
  const [gz] = (await withGrpcCalls(zipped.config, zipped.grpc!)).requestMix;
  assertEquals(gz.headers.slice(3), [["grpc-encoding", "gzip"], ["grpc-accept-encoding", "gzip"]]);
  assertEquals([gz.body![0], gz.body![5], gz.body![6]], [1, 0x1f, 0x8b]);
  throws(
    () => parse("grpc://127.0.0.1:1", "--call", "a.B/C", "--compress", "br"),
    /gzip is the one gRPC compression offered/,
  );
  const fails = (argv: string[], expected: RegExp) => {
    const q = parse("grpc://127.0.0.1:50051", "--proto", PROTO, ...argv);
    return rejects(
      withGrpcCalls(q.config, q.grpc!),
      (e) => e instanceof UsageError && expected.test(e.message),
    );
  };
  await fails(
    ["--call", "helloworld.Greeter/Nope"],
    /no method Nope in helloworld.Greeter \(its methods: Chat, Collect, Fail/,
  );
  await fails(
    ["--call", "other.Svc/M"],
    /no service other.Svc in the schema \(its services: helloworld.Greeter\)/,
  );
  await fails(
    ["--call", "helloworld.Greeter/SayHello", "-b", '{"detail":{"idz":1}}'],
    /^-b message.detail.idz: /,
  );
  const stream = parse(
    "grpc://127.0.0.1:50051",
    "--call",
    "helloworld.Greeter/Collect",
    "--proto",
    PROTO,
    "-b",
    '[{"name":"a"},{"name":"bc"}]',
  );
  const [collect] = (await withGrpcCalls(stream.config, stream.grpc!)).requestMix;
  assertEquals([...collect.body!], [0, 0, 0, 0, 3, 0x0a, 1, 0x61, 0, 0, 0, 0, 4, 0x0a, 2, 0x62, 0x63]);
  await fails(
    ["--call", "helloworld.Greeter/Collect", "-b", '[{"name":"a"},{"nmae":1}]'],
    /^-b message\[1\]\.nmae: /,
  );
  await fails(
    ["--call", "helloworld.Greeter/SayHello", "-b", '{"name":"{{ id }}"}'],
    /^-b message: \{\{ id \}\} is unknown: no data column or capture has that name/,
  );
  await fails(
    ["--call", "helloworld.Greeter/SayHello", "-b", '{"name":"0123456789"}', "--max-send", "8"],
    /^-b message: 12 bytes encoded, over the 8-byte send cap/,
  );
  await fails(["--call", "helloworld.Greeter/SayHello", "--reflect"], /give one schema, not several/);
  // A message with placeholders is a template filled per call, not a body encoded once.
  const templated = parse(
    "grpc://127.0.0.1:50051",
    "--call",
    "helloworld.Greeter/SayHello",
    "--proto",
    PROTO,
    "-b",
    '{"name":"{{ $randomString(4) }}","count":{{ $randomNumber(1,3) }}}',
  );
  const [t] = (await withGrpcCalls(templated.config, templated.grpc!)).requestMix;
  assertEquals([t.body, t.grpcMessage?.messages[0].slots.map((s) => s.kind)], [undefined, [
    "string",
    "int32",
  ]]);
  // With --compress and --max-send, each filled message is compressed and checked per call.
  const packed = parse(
    "grpc://127.0.0.1:50051",
    ...["--call", "helloworld.Greeter/SayHello", "--proto", PROTO, "--compress", "gzip", "--max-send", "64"],
    ...["-b", '{"name":"{{ $randomString(4) }}"}'],
  );
  const [c] = (await withGrpcCalls(packed.config, packed.grpc!)).requestMix;
  assertEquals([c.grpcMessage?.compress, c.grpcMessage?.maxSendBytes], ["gzip", 64]);
  ok(c.headers.some(([n, v]) => n === "grpc-encoding" && v === "gzip"));
});

const grpc = (...argv: string[]) =>
  parse("grpc://127.0.0.1:50051", "--call", "helloworld.Greeter/SayHello", "--proto", PROTO, ...argv);

Deno.test("on grpc:// -c is ghz's calls in flight dealt over --connections (default 1); with --streams loadlab's", () => {
  const ghz = grpc("-c", "50", "--connections", "4", "-n", "2000");
  const c = ghz.config as { connections?: number };
  assertEquals([ghz.config.concurrency, c.connections, ghz.config.streams], [50, 4, 13]);
  assertEquals(
    inFlightLine(ghz.config),
    "50 calls in flight over 4 connections (ghz's -c and --connections)",
  );
  const one = grpc("--concurrency", "8");
  assertEquals([one.config.concurrency, (one.config as { connections?: number }).connections], [8, 1]);
  const own = grpc("-c", "4", "--streams", "16");
  assertEquals([own.config.concurrency, (own.config as { connections?: number }).connections], [
    undefined,
    4,
  ]);
  assertEquals(inFlightLine(own.config), "64 calls in flight: 4 connections x 16 streams");
  throws(() => grpc("-c", "3", "--connections", "4"), /-c 3: fewer calls in flight than --connections 4/);
  throws(() => grpc("-c", "4", "--connections", "2", "--streams", "2"), /both set the connections/);
  // HTTP keeps -c and --connections as loadlab's connections.
  const http = parse("http://127.0.0.1:8080/", "--connections", "20");
  assertEquals([(http.config as { connections?: number }).connections, http.config.concurrency], [
    20,
    undefined,
  ]);
  throws(
    () => parse("http://127.0.0.1:8080/", "-c", "10", "--connections", "20"),
    /both set the connections/,
  );
});

Deno.test("ghz's spellings: --import-paths a,b, -D the message file, -O and its -o", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/m.json`, '{"name":"from a file"}');
    const p = grpc(
      ...[
        "--import-paths",
        "a,b",
        "-D",
        `${dir}/m.json`,
      ],
      ...["-O", "json", "-o", `${dir}/ghz.json`, "--total", "10"],
    );
    assertEquals([p.grpc?.importPaths, p.grpc?.message], [
      ["a", "b"],
      '{"name":"from a file"}',
    ]);
    assertEquals([p.output.format, p.output.ghzFile, p.output.outFile], [
      "json",
      `${dir}/ghz.json`,
      undefined,
    ]);
    // ghz's -m is metadata under loadlab ghz; here -m is the HTTP method, which a call has not.
    throws(() => grpc("-m", '{"x-user":"ann"}'), /--method is for HTTP/);
    assertEquals(grpc("-O", "csv").output.format, "csv");
    throws(() => grpc("--format", "html"), /--format "html": must be one of summary, json, pretty, csv/);
    throws(() => parse("http://127.0.0.1:8080/", "-O", "json"), /-O is ghz's report of a gRPC run/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a message cap the config refuses is named by its flag, not by its config field", () => {
  throws(
    () => parse("grpc://127.0.0.1:50051", "--call", "a.B/C", "--max-receive", "4294967296"),
    (err: Error) => err instanceof UsageError && /^--max-receive: /.test(err.message),
  );
});
