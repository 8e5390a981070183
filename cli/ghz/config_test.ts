import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { ghzFlags, readConfig } from "./config.ts";
import { parseAttackArgs } from "../attack/args.ts";
import { UsageError } from "../usage_error.ts";

const where = (key: string) => `--${key}`;

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
  assertEquals(ghzFlags(config, where), [
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
    ghzFlags({ ...config, total: undefined, connections: 4, skipTLS: true, insecure: false, cpus: 1 }, where),
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
    () => ghzFlags({ host: "h:1", "concurrency-schedule": "step" }, where),
    (e) =>
      e instanceof UsageError && e.exitCode === 2 &&
      /^--concurrency-schedule "step": not run by/.test(e.message),
  );
  // At its default it is ghz's own run: accepted.
  assertEquals(
    ghzFlags({ host: "h:1", "concurrency-schedule": "const", skipFirst: "0" }, where)[0],
    "grpc" + "s://h:1",
  );
  throws(() => ghzFlags({ host: "h:1", nope: 1 }, where), /--nope: not an option of ghz's/);
  throws(() => ghzFlags({ call: "a.B.C" }, where), /--host \(HOST:PORT\) is missing/);
});

Deno.test("ghz's randomString and randomInt templates become placeholders; its other actions are named", () => {
  const flags = ghzFlags({
    host: "h:1",
    data: { name: "{{randomString 8}}", count: "{{randomInt 1 10}}" },
    metadata: { "x-id": "id-{{randomInt 5 6}}" },
  }, where);
  assertEquals(flags.slice(flags.indexOf("-b"), flags.indexOf("-b") + 4), [
    "-b",
    '{"name":"{{ $randomString(8) }}","count":"{{ $randomNumber(1,9) }}"}',
    "-H",
    "x-id: id-{{ $randomNumber(5,5) }}",
  ]);
  throws(
    () => ghzFlags({ host: "h:1", data: { id: "{{.WorkerID}}" } }, where),
    (e) => e instanceof UsageError && /template \{\{\.WorkerID\}\} is not filled/.test(e.message),
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
        () => readConfig(path, "--config"),
        (e) => e instanceof UsageError && e.message.startsWith(`--config ${path}: `) && why.test(e.message),
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
    });
    await Deno.writeTextFile(file, "host = ");
    throws(() => readConfig(file, "--config"), /not TOML \(/);
  } finally {
    await Deno.remove(file);
  }
});
