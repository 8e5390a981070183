/**
 * A k6 script's requests go where the script sends them, through `loadlab run script.js` as a k6 user runs
 * it: the URL read from `__ENV` (`-e`, the process's environment, `-e` over it), with a fallback or
 * without, no `--target` needed; with `--target` the one origin the script spells is sent to it, said at
 * start-up; requests to several origins counted per origin. Two servers of the test's count what reached
 * each. A handful of iterations each.
 */
import "./in_process.ts";
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { runK6Text } from "./k6_run.ts";
import { testPool } from "./fixtures/test_pool.ts";

/** Three cases at once: each is a `loadlab run` of its own, against servers of its own. */
const pool = testPool(3);

/** Two servers on 127.0.0.1, each counting the requests it answered. */
async function withTwoServers(fn: (a: string, b: string, counts: () => number[]) => Promise<void>) {
  const counts = [0, 0];
  const servers = [0, 1].map((k) =>
    Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => {
      counts[k]++;
      return new Response("ok");
    })
  );
  try {
    await fn(
      `http://127.0.0.1:${servers[0].addr.port}`,
      `http://127.0.0.1:${servers[1].addr.port}`,
      () => [...counts],
    );
  } finally {
    for (const s of servers) await s.shutdown();
  }
}

/** A raw server: each request line kept, answered by the status line its path names (`/418_I'm_a_teapot`). */
async function withRawServer(fn: (url: string, lines: string[]) => Promise<void>) {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 }), lines: string[] = [];
  (async () => {
    for await (const conn of listener) {
      const head = new Uint8Array(4096);
      const line = new TextDecoder().decode(head.subarray(0, await conn.read(head) ?? 0));
      lines.push(line.split("\r\n", 1)[0]);
      const status = /^\S+ \/(\d{3}[^\s?/]*)/.exec(line)?.[1].replaceAll("_", " ") ?? "200 OK";
      await conn.write(
        new TextEncoder().encode(`HTTP/1.1 ${status}\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok`),
      );
      conn.close();
    }
  })().catch(() => {});
  try {
    await fn(`http://127.0.0.1:${(listener.addr as Deno.NetAddr).port}`, lines);
  } finally {
    listener.close();
  }
}

const FALLBACK = (a: string) =>
  `import http from "k6/http";
const BASE = __ENV.BASE_URL || "${a}";
export const options = { iterations: 4 };
export default function () { http.get(\`\${BASE}/json\`); }
`;

pool.test("-e BASE_URL sends every request there, past the script's fallback, with no --target", () =>
  withTwoServers(async (a, b, counts) => {
    const { code, text } = await runK6Text(FALLBACK(a), null, ["-e", `BASE_URL=${b}`], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [0, 4], text);
  }));

pool.test("a variable of the process's environment is __ENV too; -e wins over it", () =>
  withTwoServers(async (a, b, counts) => {
    const { code, text } = await runK6Text(FALLBACK("http://127.0.0.1:9"), null, [], {
      env: { BASE_URL: b },
    });
    assertEquals(code, 0, text);
    assertEquals(counts(), [0, 4], text);
    const over = await runK6Text(FALLBACK("http://127.0.0.1:9"), null, ["-e", `BASE_URL=${a}`], {
      env: { BASE_URL: b },
    });
    assertEquals(over.code, 0, over.text);
    assertEquals(counts(), [4, 4], over.text);
  }));

pool.test("a URL with no fallback (`${__ENV.BASE}/json`) runs with -e BASE alone", () =>
  withTwoServers(async (_a, b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 3 };
export default function () { http.get(\`\${__ENV.BASE}/json\`); }
`;
    const { code, text } = await runK6Text(script, null, ["-e", `BASE=${b}`], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [0, 3], text);
  }));

pool.test("a URL built from a host the script keeps in a const (with credentials) runs with no --target", () =>
  withTwoServers(async (_a, b, counts) => {
    const script = `import http from "k6/http";
const HOST = __ENV.API_HOST || "127.0.0.1:9";
const BASE = \`http://u:p@\${HOST}\`;
export const options = { iterations: 3 };
export default function () { http.get(\`\${BASE}/v\${__ENV.UNSET}/x\`); http.get(\`http://\${HOST}/y\`); }
`;
    const { code, text } = await runK6Text(script, null, [], {
      env: { API_HOST: b.slice("http://".length) },
    });
    assertEquals(code, 0, text);
    assertEquals(counts(), [0, 6], text);
  }));

pool.test("--target sends the origin the script spells there, and says so at start-up", () =>
  withTwoServers(async (_a, b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 2 };
export default function () { http.get("https://test.k6.io/json"); }
`;
    const { code, text } = await runK6Text(script, b, [], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [0, 2], text);
    ok(text.includes(`script.js: requests to https://test.k6.io go to ${b} (--target app)`), text);
  }));

pool.test("requests to two origins reach both, counted per origin", () =>
  withTwoServers(async (a, b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 2 };
export default function () {
  http.get(\`\${__ENV.FIRST}/one\`);
  http.get(\`\${__ENV.SECOND}/two\`);
  http.get(\`\${__ENV.SECOND}/two\`);
}
`;
    const { code, text, results } = await runK6Text(script, null, ["-e", `FIRST=${a}`, "-e", `SECOND=${b}`], {
      inProcess: true,
    });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 4], text);
    const steps = Object.fromEntries(
      results.runs[0].flows[0].steps.map((s: { label: string; requests: number }) => [s.label, s.requests]),
    );
    assertEquals(steps, { "GET /one": 2, [`GET ${b}/two`]: 4 });
  }));

pool.test("an unnamed request's name tag is its URL: a threshold by one origin's URL picks its requests only", () =>
  withTwoServers(async (a, b, counts) => {
    const script = `import http from "k6/http";
export const options = {
  iterations: 2,
  thresholds: { "http_reqs{name:${a}/json}": ["count==2"], "http_reqs{name:${b}/json}": ["count==4"] },
};
export default function () {
  http.get("${a}/json");
  http.get("${b}/json");
  http.get("${b}/json");
}
`;
    const { code, text } = await runK6Text(script, null, [], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 4], text);
  }));

pool.test("a script that sends no request runs with no URL and no --target, as k6 runs it", async () => {
  const script = `import { check } from "k6";
import encoding from "k6/encoding";
export const options = { iterations: 2 };
export default function () { check(encoding.b64encode("hi"), { "encoded": (s) => s === "aGk=" }); }
`;
  const { code, text, stdout } = await runK6Text(script, null);
  assertEquals(code, 0, text);
  ok(/checks_succeeded\.+: 100\.00% 2 out of 2/.test(stdout), stdout);
  ok(text.includes("sends no request"), text);
  // One whose URLs read an unset variable runs as k6's, its requests failing, and is told what to set.
  for (const [read, name] of [["__ENV.BASE", "BASE"], ["API", "API_URL"]]) {
    const unnamed = await runK6Text(
      `import http from "k6/http";\nconst API = __ENV.API_URL;\nconst debug = __ENV.DEBUG;\n` +
        `export default function () { http.get(\`\${${read}}/x\`); }\n`,
      null,
    );
    assertEquals(unnamed.code, 0, unnamed.text);
    ok(unnamed.stderr.includes(`__ENV.${name}, unset (k6's requests then fail): set it with -e ${name}=URL`));
    ok(unnamed.stderr.includes('unsupported protocol scheme ""'), unnamed.text);
    ok(!unnamed.stderr.includes("DEBUG"), unnamed.text);
  }
});

pool.test("a script whose URLs are all computed at run time runs with no --target, each origin reached", () =>
  withTwoServers(async (_a, b, counts) => {
    // setup() joins the address from __ENV; the next URL comes from a response's body.
    const script = `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, thresholds: { checks: ["rate==1"] } };
export function setup() { return { base: ["http", "://", __ENV.ADDR].join("") }; }
let next = "";
export default function (d) {
  if (next === "") next = http.get(d.base + "/start").json().next;
  check(http.post(next, "x"), { "200": (r) => r.status === 200 });
}
`;
    // The first server's answer names the second.
    const first = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => Response.json({ next: b }),
    );
    try {
      const { code, text } = await runK6Text(script, null, ["-e", `ADDR=127.0.0.1:${first.addr.port}`], {
        inProcess: true,
      });
      assertEquals(code, 0, text);
      ok(text.includes("script.js: names no URL before the load"), text);
      assertEquals(counts(), [0, 2], text);
    } finally {
      await first.shutdown();
    }
  }));

pool.test("a URL naming no http(s) server fails its request as k6's does, and needs no --target", async () => {
  const script = `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2 };
const failed = (r) => r.status === 0 && r.error_code === 1000;
export default function () {
  check(http.get(""), { "no scheme": failed });
  check(http.get("api.local/status"), { "no scheme either": failed });
  check(http.request("GET", "ftp://files.local/x"), { "not http's": failed });
}
`;
  const { code, text, stdout } = await runK6Text(script, null);
  assertEquals(code, 0, text);
  ok(/checks_succeeded\.+: 100\.00% 6 out of 6/.test(stdout), stdout);
  ok(text.includes('Request Failed: unsupported protocol scheme "ftp"'), text);
  // A URL that does not parse is k6's 1020; with throw: true the request throws, as k6's does.
  const thrown = await runK6Text(
    `import http from "k6/http";\nexport const options = { iterations: 1, throw: true };\n` +
      `export default function () { console.log(http.get("http://[::1").error_code); }\n`,
    "http://127.0.0.1:9",
  );
  ok(thrown.text.includes('invalid URL: parse "http://[::1"'), thrown.text);
  ok(!/^1020$/m.test(thrown.stdout), thrown.text);
});

pool.test("options.hosts naming an address with no port sends to the scheme's port, as k6's dialer", async () => {
  const script = `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2, hosts: { "api.test": "127.0.0.1" } };
export default function () { check(http.get("http://api.test/"), { "answered or refused": () => true }); }
`;
  const { code, text, stdout } = await runK6Text(script, null, [], { inProcess: true });
  assertEquals(code, 0, text);
  ok(text.includes("requests to http://api.test go to http://127.0.0.1 (options.hosts)"), text);
  ok(/checks_succeeded\.+: 100\.00% 2 out of 2/.test(stdout), stdout);
});

pool.test("--target ORIGIN=URL sends a second origin the script spells to a local server, said at start-up", () =>
  withTwoServers(async (a, b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 2 };
export default function () {
  http.get("https://test.k6.io/one");
  http.get("https://httpbin.test/two");
}
`;
    const { code, text } = await runK6Text(script, a, ["--target", `https://httpbin.test=${b}`], {
      inProcess: true,
    });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 2], text);
    ok(
      text.includes(`requests to https://httpbin.test go to ${b} (--target https://httpbin.test=URL)`),
      text,
    );
    ok(text.includes(`requests to https://test.k6.io go to ${a} (--target app)`), text);
  }));

pool.test("--target app sends the host the script spells, never one the environment gives", () =>
  withTwoServers(async (a, b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 2 };
export default function () {
  http.get("https://test.k6.io/one");
  http.get(\`\${__ENV.OTHER}/two\`);
}
`;
    const { code, text } = await runK6Text(script, a, ["-e", `OTHER=${b}`], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 2], text);
    ok(text.includes(`requests to https://test.k6.io go to ${a} (--target app)`), text);
  }));

pool.test("--target ORIGIN=URL on anything but a k6 script is refused, naming the flag", async () => {
  const { code, text } = await runK6Text('export default async function (s) { await s.get("/"); }\n', null, [
    "--target",
    "https://api.test=http://127.0.0.1:9",
  ], { inProcess: true });
  assertEquals(code, 2, text);
  ok(text.includes("--target https://api.test=URL sends a k6 script's requests"), text);
});

pool.test("--target ORIGIN=URL alone: the script's one host sent there, the run's target", () =>
  withTwoServers(async (a, _b, counts) => {
    const script = `import http from "k6/http";
export const options = { iterations: 2 };
export default function () { http.get("https://test.k6.io/one"); }
`;
    const { code, text, results } = await runK6Text(script, null, ["--target", `https://test.k6.io=${a}`], {
      inProcess: true,
    });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 0], text);
    assertEquals(results.runs[0].flows[0].steps.map((s: { label: string }) => s.label), ["GET /one"]);
  }));

pool.test("setup() and teardown() send where the run's redirects say, as the iterations do", () =>
  withTwoServers(async (a, _b, counts) => {
    const script = `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 2 };
export function setup() { return { status: http.get("https://test.k6.io/setup").status }; }
export default function (data) {
  check(data, { "setup reached the server": (d) => d.status === 200 });
  http.get("https://test.k6.io/one");
}
export function teardown() { http.get("https://test.k6.io/teardown"); }
`;
    const { code, text } = await runK6Text(script, a, [], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [4, 0], text);
  }));

pool.test("k6/ws connects to the URL the script gives, not to the run's target", () =>
  withTwoServers(async (a, _b, counts) => {
    let sockets = 0;
    const echo = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const { socket, response } = Deno.upgradeWebSocket(req);
      sockets++;
      socket.onmessage = (e) => socket.send(e.data);
      return response;
    });
    try {
      const script = `import http from "k6/http";
import ws from "k6/ws";
import { check } from "k6";
export const options = { iterations: 2 };
export default function () {
  http.get(\`\${__ENV.BASE}/json\`);
  const res = ws.connect(\`\${__ENV.WS}/echo\`, null, (socket) => {
    socket.on("open", () => socket.send("hi"));
    socket.on("message", () => socket.close());
  });
  check(res, { "ws 101": (r) => r.status === 101 });
}
`;
      const ws = `ws://127.0.0.1:${echo.addr.port}`;
      const { code, text } = await runK6Text(script, null, ["-e", `BASE=${a}`, "-e", `WS=${ws}`], {
        inProcess: true,
      });
      assertEquals(code, 0, text);
      assertEquals([counts(), sockets], [[2, 0], 2], text);
    } finally {
      await echo.shutdown();
    }
  }));

pool.test("options.throw: a request that cannot connect throws, where the script may catch it", () =>
  withTwoServers(async (a, _b, counts) => {
    const script = `import http from "k6/http";
import { Counter } from "k6/metrics";
const caught = new Counter("caught");
export const options = { iterations: 2, throw: true, thresholds: { caught: ["count==6"] } };
export default async function () {
  http.get("${a}/ok");
  // k6's words: Go's url.Error of the method, URL and the dial, thrown as a GoError.
  const refused = 'GoError: Post "http://127.0.0.1:9/closed": dial tcp 127.0.0.1:9: connect: connection refused';
  try { http.post("http://127.0.0.1:9/closed"); } catch (e) { if (String(e) === refused) caught.add(1); }
  try { http.get("gopher://x/"); } catch (e) { if (e.message === 'Get "gopher://x/": unsupported protocol scheme "gopher"') caught.add(1); }
  // An asyncRequest rejects with Go's value itself: its text, no message, not an Error.
  const rejected = await http.asyncRequest("GET", "http://127.0.0.1:9/").catch((e) => e);
  const words = 'Get "http://127.0.0.1:9/": dial tcp 127.0.0.1:9: connect: connection refused';
  if (String(rejected) === words && rejected.message === undefined && !(rejected instanceof Error)) caught.add(1);
}
`;
    const { code, text } = await runK6Text(script, null, [], { inProcess: true });
    assertEquals(code, 0, text);
    assertEquals(counts(), [2, 0], text);
  }));

pool.test("status_text is the server's own status line past its protocol, as k6 gives it", () =>
  withRawServer(async (url) => {
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
export const options = { iterations: 1, thresholds: { checks: ["rate==1"] } };
export default function () {
  const teapot = http.get("${url}/418_I'm_a_teapot"), fine = http.get("${url}/200_Fine__thanks");
  check(null, {
    teapot: () => teapot.status_text === "418 I'm a teapot",
    own: () => fine.status_text === "200 Fine  thanks",
    bare: () => http.get("${url}/204").status_text === "204",
  });
}
`,
      null,
      [],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
  }));

pool.test("a URL goes as Go's net/url reads it: the query and dot segments as written, the path escaped", () =>
  withRawServer(async (url, lines) => {
    const host = url.replace("127.0.0.1", "LOCALHOST");
    // k6 v1.8.1's request lines and url tags for these URLs, recorded by a raw server.
    const { code, text } = await runK6Text(
      `import http from "k6/http";
import { check } from "k6";
const B = "${url}";
export const options = {
  iterations: 1,
  thresholds: {
    checks: ["rate==1"],
    "http_reqs{url:${url}/s?q=a b}": ["count==1"],
    "http_reqs{name:${url}/a/../b}": ["count==1"],
    "http_reqs{url:${url}/p%7Cq%20r#frag}": ["count==1"],
    "http_reqs{url:${url}/s}": ["count==1"],
  },
};
export default function () {
  const spaced = http.get(B + "/s?q=a b");
  http.get(B + "/s?other=1");
  http.get(B + "/s");
  http.get(B + "/a/../b");
  const piped = http.get(B + "/p|q r#frag");
  http.get(B + "/u?q=é&c=<d>");
  http.get("${host}/host");
  const bad = http.get(B + "/pc%zz");
  check(null, {
    "res.url as Go prints it": () => spaced.url === B + "/s?q=a b" && piped.url === B + "/p%7Cq%20r#frag",
    "a bad escape is k6's invalid URL": () =>
      bad.error === 'invalid URL: parse "' + B + '/pc%zz": invalid URL escape "%zz"' && bad.url === "",
  });
}
`,
      null,
    );
    assertEquals(code, 0, text);
    assertEquals(lines, [
      "GET /s?q=a b HTTP/1.1",
      "GET /s?other=1 HTTP/1.1",
      "GET /s HTTP/1.1",
      "GET /a/../b HTTP/1.1",
      "GET /p%7Cq%20r HTTP/1.1",
      "GET /u?q=é&c=<d> HTTP/1.1",
      "GET /host HTTP/1.1",
    ], text);
  }));

pool.test("a threshold on a credentialed URL keyed as k6 tags it (****:****) is judged and kept, the password not", () =>
  withTwoServers(async (url) => {
    const masked = url.replace("//", "//****:****@");
    const { code, text, dir } = await runK6Text(
      `import http from "k6/http";
export const options = {
  iterations: 2,
  thresholds: { "http_reqs{url:${masked}/ui}": ["count==2"], "http_reqs{url:${url}/ui}": ["count==0"] },
};
export default function () { http.get("${url.replace("//", "//ci:hunter2@")}/ui"); }
`,
      null,
      (dir) => ["--summary-export", `${dir}/summary.json`],
      { inProcess: true },
    );
    assertEquals(code, 0, text);
    const summary = Deno.readTextFileSync(`${dir}/summary.json`);
    ok(summary.includes(`"http_reqs{url:${masked}/ui}"`), summary);
    const results = Deno.readTextFileSync(`${dir}/out/results.json`);
    ok(results.includes(`${masked}/ui`) && !results.includes("hunter2"), results);
  }));
