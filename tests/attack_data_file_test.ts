/**
 * `loadlab attack --data-file`, end to end against the built-in target (its HTTP app and its gRPC
 * endpoints, served in this process): a CSV's rows filling the URL's query and a JSON array's its path
 * over HTTP/1.1, a JSON array's filling a header and a POST body over HTTP/2, an NDJSON file's filling a
 * gRPC message and its metadata, each row's value reaching the server (the answers' codes split as the
 * rows are); and what is refused before the load (exit 2) naming the problem: a name no column has, an
 * empty file, a file that is not rows, an option without the file.
 */
import { loadlabInProcess } from "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { serveGrpcTarget } from "../targets/app/grpc_endpoints.ts";
import { withTarget, withTempDir } from "./helpers.ts";

const PROTO = new URL("../targets/app/target.proto", import.meta.url).pathname;

/** The run of an attack's results file. */
async function runOf(file: string) {
  return JSON.parse(await Deno.readTextFile(file)).runs[0];
}

Deno.test("attack --data-file fills the URL's query over HTTP/1.1 and a header and body over HTTP/2", async () => {
  await withTarget((url) =>
    withTempDir(async (dir) => {
      // /validate answers 200 for an integer id and a name of 5 letters or more, else 400.
      await Deno.writeTextFile(`${dir}/ids.csv`, "id,name\n1,alice\nx,bobby\n");
      const h1 = await loadlabInProcess([
        "attack",
        `${url}/validate?id={{ id }}&name={{ name }}`,
        "--data-file",
        `${dir}/ids.csv`,
        ...["-n", "10", "-c", "1", "--timeout", "5s", "-o", `${dir}/h1.json`],
      ]);
      assertEquals(h1.code, 0, h1.stdout + h1.stderr);
      const run = await runOf(`${dir}/h1.json`);
      assertEquals([run.statusCodes, run.errors], [{ "200": 5, "400": 5 }, {}]);
      assertEquals(run.config.data.order, "sequential");

      // A placeholder in the URL's path, typed as it is: /error/1 answers 500, /error/0 200.
      await Deno.writeTextFile(`${dir}/n.json`, JSON.stringify([{ n: 0 }, { n: 1 }]));
      const path = await loadlabInProcess([
        "attack",
        `${url}/error/{{ n }}`,
        ...["--data-file", `${dir}/n.json`, "-n", "8", "-c", "1", "--timeout", "5s", "-o", `${dir}/p.json`],
      ]);
      assertEquals(path.code, 0, path.stdout + path.stderr);
      assertEquals((await runOf(`${dir}/p.json`)).statusCodes, { "200": 4, "500": 4 });

      // /login answers 200 for the password "secret", else 401.
      await Deno.writeTextFile(
        `${dir}/users.json`,
        JSON.stringify([{ user: "ann", pw: "secret" }, { user: "bob", pw: "wrong" }]),
      );
      const h2 = await loadlabInProcess([
        "attack",
        `${url}/login`,
        ...["-m", "POST", "-T", "application/json", "-H", "X-User: {{ user }}"],
        ...["-b", '{"user":"{{ user }}","password":"{{ pw }}"}', "--data-file", `${dir}/users.json`],
        ...["--h2", "--streams", "2", "-n", "10", "-c", "1", "--timeout", "5s", "-o", `${dir}/h2.json`],
      ]);
      assertEquals(h2.code, 0, h2.stdout + h2.stderr);
      assertEquals((await runOf(`${dir}/h2.json`)).statusCodes, { "200": 5, "401": 5 });
    })
  );
});

Deno.test("attack --data-file fills a gRPC message and its metadata from an NDJSON file", async () => {
  const server = await serveGrpcTarget({ hostname: "127.0.0.1", port: 0 });
  try {
    await withTempDir(async (dir) => {
      // Cpu takes n up to its cap: 5 is answered OK, 99 INVALID_ARGUMENT.
      await Deno.writeTextFile(`${dir}/work.ndjson`, '{"n":5,"label":"five"}\n{"n":99,"label":"many"}\n');
      const r = await loadlabInProcess([
        "attack",
        `grpc://127.0.0.1:${server.port}`,
        ...["--call", "loadlab.target.Target/Cpu", "--proto", PROTO],
        ...["-b", '{"n": {{ n }}}', "-H", "x-label: {{ label }}", "--data-file", `${dir}/work.ndjson`],
        ...["-n", "12", "-c", "1", "--streams", "3", "--timeout", "5s", "-o", `${dir}/r.json`],
      ]);
      assertEquals(r.code === 0 || r.code === 1, true, r.stdout + r.stderr);
      const run = await runOf(`${dir}/r.json`);
      assertEquals([run.statusCodes, run.errors], [{ "200": 6, "grpc INVALID_ARGUMENT": 6 }, {}]);
    });
  } finally {
    await server.close();
  }
});

Deno.test("attack --data-file: an unknown name, an empty or unreadable file, an option alone are exit 2", async () => {
  await withTempDir(async (dir) => {
    await Deno.writeTextFile(`${dir}/ids.csv`, "id\n1\n");
    await Deno.writeTextFile(`${dir}/empty.csv`, "id\n");
    await Deno.writeTextFile(`${dir}/obj.json`, '{"id": 1}');
    const url = "http://127.0.0.1:9/x?id={{ id }}";
    const cases: Array<[string[], string]> = [
      [
        [url.replace("id }}", "idd }}"), "--data-file", `${dir}/ids.csv`],
        "{{ idd }} is unknown: ids.csv has no",
      ],
      [[url], "{{ id }} is unknown: there is no --data-file"],
      [[url, "--data-file", `${dir}/empty.csv`], "empty.csv: has no rows"],
      [[url, "--data-file", `${dir}/obj.json`], "is not an array of objects: give a JSON array"],
      [[url, "--data-file", `${dir}/none.csv`], "none.csv: no such file"],
      [[url, "--data-order", "random"], "--data-order goes with --data-file"],
      [[url, "--data-file", `${dir}/ids.csv`, "--data-order", "often"], "--data-order: "],
      [[url, "--data-file", `${dir}/ids.csv`, "-p", "4"], "-p: a load with data sends one request per row"],
    ];
    for (const [args, expected] of cases) {
      const r = await loadlabInProcess(["attack", ...args, "-n", "1"], { rejected: true });
      assertEquals(r.code, 2, `${args.join(" ")}: ${r.stderr}`);
      ok(r.stderr.includes(expected), `${args.join(" ")}: ${r.stderr}`);
    }
  });
});
