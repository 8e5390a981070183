import assert from "node:assert/strict";
import { parseFlags, serveSpecFromFlags } from "./serve_cmd.ts";
import { UsageError } from "./usage_error.ts";

const specOf = (argv: string[]) => serveSpecFromFlags(parseFlags(argv));

Deno.test("serve flags: bad values are UsageErrors naming the flag, before anything starts", () => {
  const cases: Array<[string[], RegExp]> = [
    [["--host="], /^--host "": must not be empty, e\.g\. --host 127\.0\.0\.1$/],
    [["--redis", "localhost"], /^--redis "localhost": not a redis:\/\/ URL; e\.g\. --redis redis:\/\/127/],
    [["--static-dir", "/nonexistent/loadlab"], /^--static-dir "\/nonexistent\/loadlab": no such folder/],
    [["--static-dir", "deno.json"], /^--static-dir "deno\.json": is not a folder/],
    [["--port", "-1"], /^--port "-1": must be a whole number 0\.\.65535/],
    [["--instances", "65"], /^--instances "65": must be a whole number 1\.\.64/],
  ];
  for (const [argv, message] of cases) {
    assert.throws(() => specOf(argv), (err) => err instanceof UsageError && message.test(err.message));
  }
});

Deno.test("serve flags: port 0, a TTL of 0 and a real folder are fine", () => {
  const spec = specOf([
    "--port",
    "0",
    "--cache-ttl",
    "0",
    "--static-dir",
    "cli",
    "--redis",
    "redis://127.0.0.1:1",
  ]);
  assert.equal(spec.kind, "builtin");
  assert.equal(spec.port, 0);
  assert.equal(spec.kind === "builtin" && spec.staticDir, "cli");
});

Deno.test("serve --profile profiles the built-in target, and the proxy with its built-in upstream", () => {
  assert.equal((specOf(["--profile"]) as { profile?: string }).profile, "cpu");
  assert.equal((specOf(["--profile=out"]) as { profile?: string }).profile, "cpu");
  const proxied = specOf(["--profile", "--redis-cache-ttl", "5"]);
  assert.equal(proxied.kind, "proxy");
  assert.equal((proxied as { profile?: string }).profile, "cpu");
  assert.equal((proxied as { upstream: { profile?: string } }).upstream.profile, "cpu");
  assert.equal((specOf([]) as { profile?: string }).profile, undefined);
});

Deno.test("serve --profile[=DIR] that takes no file is exit 5 before the target starts, not a lost profile", async () => {
  // A bare --profile writes into the current folder, as its help says.
  for (const [flag, cwd, shown] of [["--profile=/proc", ".", "/proc"], ["--profile", "/proc", "."]]) {
    const main = new URL("../main.ts", import.meta.url).pathname;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", main, "serve", "--port", "0", flag],
      cwd,
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const timer = setTimeout(() => child.kill("SIGTERM"), 20_000);
    const { code, stdout, stderr } = await child.output();
    clearTimeout(timer);
    const err = new TextDecoder().decode(stderr);
    assert.equal(code, 5, `${new TextDecoder().decode(stdout)}\n${err}`);
    assert.equal(err, `loadlab serve: --profile=${shown}: cannot write: ${err.split("cannot write: ")[1]}`);
    assert.doesNotMatch(new TextDecoder().decode(stdout), /listening/);
  }
});
