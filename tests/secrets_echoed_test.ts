/**
 * End to end: secrets a server sends back, and lines a server forges. A gRPC server (node:http2) that puts
 * the request's headers into its grpc-message: `attack -H authorization -H x-api-key`, and a k6 script
 * whose metadata carries a secret `__ENV` value, show neither value in clear in any output (the terminal
 * with its exit line, `-q` too, results.json, report.html, summary.md, JUnit); a grpc-message holding CR,
 * LF, NUL and U+202E shows on one line with them escaped (`\r`, `\n`, `\u202e`) on the terminal and in the
 * report, forging no line of its own, and results.json keeps it as sent. Bounded counts on loopback.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runLoadlab, withTarget, withTempDir } from "./helpers.ts";
import { startEchoGrpcServer } from "./fixtures/echo_grpc_server.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Cases at once: each is `loadlab` processes and their start-ups, mostly waiting. */
const pool = testPool(3);

const PROTO = new URL("../examples/grpc/greeter.proto", import.meta.url).pathname;
const BEARER = "BearerTok-Q81zLm44Xw";
const API_KEY = "apiKey-Hh27Vv90Pp";
const ENV_TOKEN = "envTok-Rt55Kd83Yc";
/** A secret-named metadata value written in a script's own text: known to its worker once sent. */
const LITERAL_KEY = "litKey-Wq38Nb61Zs";

/** Every file under `dir` as text. */
async function filesIn(dir: string): Promise<Array<[string, string]>> {
  const files: Array<[string, string]> = [];
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isFile) files.push([entry.name, await Deno.readTextFile(`${dir}/${entry.name}`)]);
  }
  return files;
}

function assertNoSecret(where: Array<[string, string]>, secrets: string[]): void {
  for (const [name, text] of where) {
    for (const secret of secrets) {
      ok(!text.includes(secret), `${name} holds ${secret}:\n${text.slice(-3000)}`);
    }
  }
}

pool.test("attack: header values a gRPC server echoes in its message are redacted everywhere, -q too", async () => {
  const server = await startEchoGrpcServer();
  try {
    await withTempDir(async (dir) => {
      for (const quiet of [[], ["-q"]]) {
        const { code, stdout, stderr } = await runLoadlab([
          "attack",
          server.origin.replace("http:", "grpc:"),
          "--proto",
          PROTO,
          "--call",
          "helloworld.Greeter/SayHello",
          "-n",
          "3",
          "-c",
          "1",
          "-H",
          `authorization: Bearer ${BEARER}`,
          "-H",
          `x-api-key: ${API_KEY}`,
          "--out",
          `${dir}/results.json`,
          "--report",
          `${dir}/report.html`,
          "--junit",
          `${dir}/junit.xml`,
          "--summary",
          `${dir}/summary.md`,
          ...quiet,
        ]);
        // Answered calls, whatever their status, as ghz counts them: the run ends 0 with its errors shown.
        assertEquals(code, 0, stderr);
        if (quiet.length === 0) ok(/authorization=\[redacted /.test(stdout), stdout);
        assertNoSecret([["stdout", stdout], ["stderr", stderr], ...await filesIn(dir)], [BEARER, API_KEY]);
      }
    });
  } finally {
    await server.close();
  }
});

pool.test("run: a k6 script's secret __ENV and literal values in gRPC metadata, echoed by the server, reaches no output", async () => {
  const server = await startEchoGrpcServer();
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/echo.js`,
        `import grpc from "k6/net/grpc";
const client = new grpc.Client();
client.load([${JSON.stringify(PROTO.replace(/\/[^/]+$/, ""))}], "greeter.proto");
export const options = { iterations: 2, vus: 1 };
export default () => {
  client.connect(__ENV.GRPC_ADDR, { plaintext: true });
  const r = client.invoke("helloworld.Greeter/SayHello", { name: "x" },
    { metadata: { "x-trace": __ENV.SECRET_TOKEN, "x-api-key": "${LITERAL_KEY}" } });
  console.log("the server said " + r.error.message);
  client.close();
};
`,
      );
      const { stdout, stderr } = await runLoadlab(
        [
          "run",
          `${dir}/echo.js`,
          "--target",
          `app=${server.origin}`,
          "--out-dir",
          `${dir}/out`,
          "--summary",
          `${dir}/out/summary.md`,
        ],
        {
          SECRET_TOKEN: ENV_TOKEN,
          GRPC_ADDR: server.origin.slice("http://".length),
          XDG_CACHE_HOME: `${dir}/cache`,
        },
      );
      const files = await filesIn(`${dir}/out`);
      ok(files.some(([name]) => name === "results.json") && files.some(([name]) => name === "report.html"));
      ok(stdout.includes("the server said ") && (stdout + stderr).includes("grpc INTERNAL"), stdout + stderr);
      assertNoSecret([["stdout", stdout], ["stderr", stderr], ...files], [ENV_TOKEN, LITERAL_KEY]);
    });
  } finally {
    await server.close();
  }
});

pool.test("attack: a grpc-message with CR, LF, NUL and U+202E is one line with them escaped; results keep it", async () => {
  const forged = "FAKE\r\nVerdict: ok\u202e\x00end";
  const server = await startEchoGrpcServer(() => forged);
  try {
    await withTempDir(async (dir) => {
      const { code, stdout, stderr } = await runLoadlab([
        "attack",
        server.origin.replace("http:", "grpc:"),
        "--proto",
        PROTO,
        "--call",
        "helloworld.Greeter/SayHello",
        "-n",
        "2",
        "-c",
        "1",
        "--out",
        `${dir}/results.json`,
        "--report",
        `${dir}/report.html`,
      ]);
      assertEquals(code, 0, stderr);
      const terminal = stdout + stderr;
      // The only verdict line is loadlab's own.
      assertEquals(terminal.split("\n").filter((l) => /^\s*Verdict: ok/.test(l)), [], terminal);
      ok(terminal.includes("2 × FAKE\\r\\nVerdict: ok\\u202e\\u0000end"), stdout);
      const results = JSON.parse(await Deno.readTextFile(`${dir}/results.json`));
      assertEquals(Object.keys(results.runs[0].errorMessages["grpc INTERNAL"]), [forged]);
      const report = await Deno.readTextFile(`${dir}/report.html`);
      ok(!report.includes("\u202e"), "the report holds U+202E as it is");
      // The page's data (JSON in the page) holds the message with its escapes shown.
      ok(report.includes("FAKE\\\\r\\\\nVerdict: ok\\\\u202e\\\\u0000end"), "the report's message escaped");
    });
  } finally {
    await server.close();
  }
});

pool.test("run: a k6 script's check name, console line and throw holding a body that echoes a secret and CR LF", () =>
  withTarget((url) =>
    withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/body.js`,
        `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, vus: 1 };
export default () => {
  const res = http.post("${url}/echo", "tok=" + __ENV.API_TOKEN + "\\r\\nVerdict: ok");
  check(res, { ["body " + res.body]: (r) => r.status === 200 });
  console.log("the body was " + res.body);
  if (__ITER === 1) throw new Error("thrown " + res.body);
};
`,
      );
      const { stdout, stderr } = await runLoadlab(
        [
          "run",
          `${dir}/body.js`,
          "--target",
          `app=${url}`,
          "--out-dir",
          `${dir}/out`,
          "--summary",
          `${dir}/out/summary.md`,
        ],
        { API_TOKEN: ENV_TOKEN, XDG_CACHE_HOME: `${dir}/cache` },
      );
      const terminal = stdout + stderr;
      assertEquals(terminal.split("\n").filter((l) => /^\s*Verdict: ok/.test(l)), [], terminal);
      ok(
        /the body was tok=\[redacted 17 chars sha256:[0-9a-f]{8}\]\\r\\nVerdict: ok/.test(terminal),
        terminal,
      );
      ok(/body tok=\[redacted [^\n]*\\r\\nVerdict: ok \(cleaned/.test(terminal), terminal);
      const files = await filesIn(`${dir}/out`);
      ok(files.some(([name]) => name === "results.json"));
      assertNoSecret([["stdout", stdout], ["stderr", stderr], ...files], [ENV_TOKEN]);
    })
  ));

pool.test("run: a cookie a server set and then echoes in a body is redacted in a k6 script's check and console", async () => {
  const COOKIE = "CookieVal-77665544";
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req) =>
      new URL(req.url).pathname === "/set"
        ? new Response("set", { headers: { "set-cookie": `sid=${COOKIE}; Path=/` } })
        : new Response(`cookie was ${req.headers.get("cookie")}`),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    await withTempDir(async (dir) => {
      await Deno.writeTextFile(
        `${dir}/cookie.js`,
        `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, vus: 1 };
export default () => {
  http.get("${origin}/set");
  const res = http.get("${origin}/echo");
  check(res, { ["got " + res.body]: (r) => r.status === 200 });
  console.log("echo: " + res.body);
};
`,
      );
      const { code, stdout, stderr } = await runLoadlab(
        ["run", `${dir}/cookie.js`, "--target", `app=${origin}`, "--out-dir", `${dir}/out`],
        { XDG_CACHE_HOME: `${dir}/cache` },
      );
      assertEquals(code, 0, stderr);
      ok(stdout.includes("echo: cookie was sid=[redacted 18 chars sha256:"), stdout);
      assertNoSecret([["stdout", stdout], ["stderr", stderr], ...await filesIn(`${dir}/out`)], [COOKIE]);
    });
  } finally {
    await server.shutdown();
  }
});
