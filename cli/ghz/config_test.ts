import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { expandGhzConfig, ghzFlags } from "./config.ts";
import { parseAttackArgs } from "../attack/args.ts";
import { UsageError } from "../usage_error.ts";

Deno.test("ghz's example config becomes the flags it stands for, flags typed after it win", async () => {
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
  assertEquals(ghzFlags(config, "ghz.json"), [
    "grpc://0.0.0.0:50051",
    "--call",
    "helloworld.Greeter.SayHello",
    "--proto",
    "/path/to/greeter.proto",
    "-n",
    "2000",
    "--connections",
    "1",
    "-c",
    "50",
    "-i",
    "/path/to/protos",
    "-b",
    '{"name":"Joe"}',
    "-H",
    "foo: bar",
  ]);
  const file = await Deno.makeTempFile({ suffix: ".json" });
  try {
    await Deno.writeTextFile(
      file,
      JSON.stringify({
        ...config,
        connections: 4,
        skipTLS: true,
        insecure: false,
        format: "json",
        output: "ghz.json",
        cpus: 1,
      }),
    );
    const argv = expandGhzConfig(["--ghz-config", file, "-n", "10"]);
    const parsed = parseAttackArgs(argv, { openFileLimit: 1024 });
    assertEquals([
      parsed.config.url,
      parsed.config.protocol,
      (parsed.config as { connections?: number }).connections,
      parsed.config.concurrency,
      parsed.config.streams,
      parsed.config.workers,
      parsed.output.format,
      parsed.output.ghzFile,
      parsed.output.outFile,
    ], [
      "https://0.0.0.0:50051/",
      "h2",
      4,
      50,
      13,
      1,
      "json",
      "ghz.json",
      undefined,
    ]);
    assertEquals([
      parsed.config.model,
      (parsed.config as { requests?: number }).requests,
      parsed.config.tls?.insecure,
    ], [
      "count",
      10,
      true,
    ]);
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("a ghz key loadlab cannot honour is named, not ignored; no host is an error", () => {
  throws(
    () => ghzFlags({ host: "h:1", "load-schedule": "step", "lb-strategy": "x" }, "g.json"),
    (e) =>
      e instanceof UsageError && /load-schedule, lb-strategy have no loadlab counterpart/.test(e.message),
  );
  throws(() => ghzFlags({ call: "a.B.C" }, "g.json"), /"host" \(HOST:PORT\) is missing/);
  throws(() => expandGhzConfig(["--ghz-config"]), /needs a file/);
  throws(() => expandGhzConfig(["--ghz-config", "a.json", "--ghz-config=b.json"]), /given twice/);
});

Deno.test("ghz's randomString and randomInt templates become placeholders; its other actions are named", () => {
  const flags = ghzFlags({
    host: "h:1",
    data: { name: "{{randomString 8}}", count: "{{randomInt 1 10}}" },
    metadata: { "x-id": "id-{{randomInt 5 6}}" },
  }, "g.json");
  assertEquals(flags.slice(flags.indexOf("-b"), flags.indexOf("-b") + 4), [
    "-b",
    '{"name":"{{ $randomString(8) }}","count":"{{ $randomNumber(1,9) }}"}',
    "-H",
    "x-id: id-{{ $randomNumber(5,5) }}",
  ]);
  throws(
    () => ghzFlags({ host: "h:1", data: { id: "{{.RequestNumber}}" } }, "g.json"),
    (e) =>
      e instanceof UsageError &&
      /template \{\{\.RequestNumber\}\} has no loadlab counterpart/.test(e.message),
  );
});

Deno.test("a ghz config that is a device, a FIFO or a folder is refused before a byte is read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await new Deno.Command("mkfifo", { args: [`${dir}/fifo`] }).output();
    for (
      const [path, why] of [["/dev/zero", /character device/], [`${dir}/fifo`, /FIFO/], [
        dir,
        /folder/,
      ]] as const
    ) {
      throws(
        () => expandGhzConfig(["--ghz-config", path]),
        (e) =>
          e instanceof UsageError && e.message.startsWith(`--ghz-config ${path}: `) && why.test(e.message),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
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
    assertEquals(expandGhzConfig(["--ghz-config", file]), [
      "grpc://127.0.0.1:50051",
      "--call",
      "helloworld.Greeter.SayHello",
      "-n",
      "200",
      "-O",
      "pretty",
      "--connections",
      "2",
      "-c",
      "8",
      "-b",
      '{"name":"Joe"}',
      "-H",
      "foo: bar",
    ]);
    await Deno.writeTextFile(file, "host = ");
    throws(() => expandGhzConfig(["--ghz-config", file]), /not TOML \(/);
  } finally {
    await Deno.remove(file);
  }
});
