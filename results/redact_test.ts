import { deepStrictEqual as assertEquals, match as assertMatch, ok } from "node:assert/strict";
import {
  credentialForms,
  knowSecrets,
  redactedToken,
  redactionLine,
  redactKnown,
  redactShown,
  redactText,
  shownAssignment,
  shownHeader,
  shownSweepValue,
} from "./redact.ts";
import { parseSource, readSources, redactResults } from "./redact_results.ts";
import { isSecretName, secretSubprotocols } from "./secret_finder.ts";
import type { ResultsFile } from "./schema/results.ts";
import { withoutPassword } from "./export/metrics_output.ts";

// The sources below are YAML, as in a results file read from disk: reading one imports the YAML package.
await readSources(file({}, "name: x\n"));

function file(run: Record<string, unknown>, source?: string): ResultsFile {
  return {
    schema: "loadlab.results/v3",
    createdAt: "2026-11-22T00:00:00Z",
    environment: {} as ResultsFile["environment"],
    experiment: { name: "x", ...(source ? { source } : {}) },
    runs: [run as ResultsFile["runs"][number]],
    thresholds: [],
  };
}

Deno.test("redactedToken keeps the length and a short hash; equal secrets give equal tokens", () => {
  assertMatch(redactedToken("abc"), /^\[redacted 3 chars sha256:ba7816bf\]$/);
  assertEquals(redactedToken("x1"), redactedToken("x1"));
});

Deno.test("redactResults: args, env, redis URLs, error messages; histograms and plain values untouched", () => {
  const source = `targets:
  a: { kind: external, command: app, args: [--api-key=ARGKEY1, --token, TOK2222, --port, "80"],
       env: { DB_PASSWORD: PW333333, PORT: "3000" }, url: "http://127.0.0.1:1" }
  p: { kind: proxy, redisUrl: "redis://:REDISPW9@127.0.0.1:6379", upstream: a }
`;
  const results = file({
    name: "r",
    url: "http://127.0.0.1:1/?page=2&Token=QTOK44",
    args: ["--secret", "PAIRSECRET", "--key", "tls/client.key", "--key=tls/other.key"],
    config: {
      requestMix: [{ headers: [["Proxy-Authorization", "Basic PXY555"], ["Accept", "text/plain"]] }],
    },
    histogramEncoded: "HISTQTOK44",
    errorMessages: { connect: { "cannot reach http://u:URLPW7@h/ (QTOK44)": 3 } },
  }, source);
  const out = redactResults(results);
  const text = JSON.stringify(out);
  const outside = text.replace("HISTQTOK44", "");
  for (
    const secret of ["ARGKEY1", "TOK2222", "PW333333", "REDISPW9", "QTOK44", "PXY555", "URLPW7", "PAIRSECRET"]
  ) {
    ok(!outside.includes(secret), `${secret} left in ${text}`);
  }
  ok(text.includes("HISTQTOK44"), "encoded histograms are data, never rewritten");
  ok(text.includes("text/plain") && text.includes('PORT: \\"3000\\"') && text.includes("page=2"));
  ok(text.includes("tls/client.key") && text.includes("tls/other.key"), "a TLS key's path is no secret");
  assertEquals(out.redaction?.secrets, 8);
  assertEquals(out.redaction?.kinds.includes("--secret argument"), true);
  // A second pass finds nothing new and changes nothing; new raw runs beside redacted ones (a resumed
  // file) count each secret once.
  assertEquals(redactResults(out), out);
  const resumed = redactResults({ ...out, runs: [...out.runs, ...results.runs] });
  assertEquals(resumed.redaction?.secrets, 8);
  assertMatch(redactionLine(out.redaction)!, /^8 secrets redacted: /);
  assertEquals(redactionLine({ secrets: 0, kinds: [] }), null);
});

Deno.test("redactText hides URL passwords and secret query values in one line", () => {
  const line = redactText("GET http://a:b1@h/x?session=s9&n=1 failed");
  assertMatch(line, /^GET http:\/\/a:\[redacted 2 chars sha256:[0-9a-f]{8}\]@h\/x\?session=\[redacted 2/);
  ok(line.endsWith("&n=1 failed"));
});

Deno.test("signed URLs: signature and credential query values go from export[].url and terminal lines; look-alike names stay", () => {
  const url = "https://h/write?sig=SIGVAL1&X-Amz-Signature=AMZSIG22&X-Amz-Credential=AMZCRED3" +
    "&X-Goog-Signature=GOOGSIG4&signature=PLAINSIG5&api_key=APIKEY66&password=PASSWD77&design=blue&signal=on";
  const results = {
    ...file({ name: "r" }),
    export: [{
      kind: "otlp" as const,
      url,
      intervalsSent: 1,
      intervalsDropped: 0,
      intervalsFailed: 0,
      posts: 1,
      retries: 0,
    }],
  };
  const secrets = ["SIGVAL1", "AMZSIG22", "AMZCRED3", "GOOGSIG4", "PLAINSIG5", "APIKEY66", "PASSWD77"];
  const text = JSON.stringify(redactResults(results));
  const line = redactText(`POST ${url} failed`);
  const refused = withoutPassword(`otlp=user:PW@${url.replace("https://", "")}`); // echoed in a usage error
  for (const secret of [...secrets, "PW@"]) {
    ok(!text.includes(secret), `${secret} left in ${text}`);
    ok(!line.includes(secret), `${secret} left in ${line}`);
    ok(!refused.includes(secret), `${secret} left in ${refused}`);
  }
  ok(line.includes("design=blue&signal=on"), line);
});

Deno.test("a templated step label keeps its placeholders; a literal secret beside them goes", () => {
  const labels = [
    "GET /orders?token={{ token }}",
    "GET /u/{{ id }}?api_key={{ key }}&page=1",
    "GET /x?session={{session}}",
    "login {{ user }}",
  ];
  const results = file({ name: "r", flows: [{ name: "f", steps: labels.map((label) => ({ label })) }] });
  const out = redactResults(results);
  assertEquals(out, results, JSON.stringify(out));
  assertEquals(
    redactText("GET /a?token=LIT9999&x={{ y }}"),
    `GET /a?token=${redactedToken("LIT9999")}&x={{ y }}`,
  );
});

Deno.test("a swept secret parameter's values go from the source and the runs; the kinds never carry one", () => {
  const source = "sweeps:\n  - { parameter: query.api_key, values: [mytoken77, QKB2222] }\n";
  const results = file({ name: "r", sweep: { parameter: "query.api_key", value: "mytoken77" } }, source);
  // `--set 'sweeps[0].values=[SETKEY333]'`: the experiment as run holds a value the file does not.
  results.experiment.ranSource = "sweeps:\n  - parameter: query.api_key\n    values: [SETKEY333]\n";
  const out = redactResults(results);
  const text = JSON.stringify(out);
  ok(!/mytoken77|QKB2222|SETKEY333/.test(text), text);
  assertEquals(out.redaction!.kinds, ["query.api_key sweep value"]);
  // An already shown token stays as it is.
  const shown = shownSweepValue("query.api_key", "QKB2222");
  assertEquals(shown, redactedToken("QKB2222"));
  assertEquals(shownSweepValue("query.page", 3), 3);
  assertEquals(shownSweepValue("load.cookies", "off"), "off", "an engine knob is not a secret");
  assertEquals(shownSweepValue("target.balance", "reuse-port"), "reuse-port");
  assertEquals(
    shownSweepValue("target.redisUrl", "redis://:PW1234@h:6379"),
    redactText("redis://:PW1234@h:6379"),
  );
  ok(!String(shownSweepValue("target.redisUrl", "redis://:PW1234@h:6379")).includes("PW1234"));
  assertEquals(
    redactResults(file({ name: "r", sweep: { parameter: "query.api_key", value: shown } })).runs[0].sweep,
    {
      parameter: "query.api_key",
      value: shown,
    },
  );
});

Deno.test("credentialForms: a Basic header's token, user:password and password; redactKnown hides each", () => {
  const header = `Basic ${btoa("ada:pw4567")}`;
  assertEquals(credentialForms(header), [header, btoa("ada:pw4567"), "ada:pw4567", "pw4567"]);
  assertEquals(credentialForms("Bearer tok12345"), ["Bearer tok12345", "tok12345"]);
  const text = redactKnown(
    `echo ${header} / ${btoa("ada:pw4567")} / user ada:pw4567 / pw4567`,
    credentialForms(header),
  );
  ok(!/pw4567|YWRh/.test(text), text);
});

Deno.test("isSecretName: pwd and pass as a word are secret names; bypass, passive and compass are not", () => {
  for (const name of ["pwd", "DB_PWD", "pass", "X-Pass", "user_pass", "apiKey", "sig"]) {
    ok(isSecretName(name), name);
  }
  for (const name of ["bypass", "passive", "compass", "page", "signal", "cache_bypass"]) {
    ok(!isSecretName(name), name);
  }
});

Deno.test("shownAssignment and shownHeader: a secret field's or header's value as its token, others as given", () => {
  assertMatch(
    shownAssignment("targets.a.env.API_TOKEN=abc123"),
    /^targets\.a\.env\.API_TOKEN=\[redacted 6 chars/,
  );
  assertMatch(
    shownAssignment("requests[0].headers.authorization=Bearer x"),
    /authorization=\[redacted 8 chars/,
  );
  assertEquals(shownAssignment("loads.l.cookies=false"), "loads.l.cookies=false");
  assertEquals(shownAssignment("loads.l.connections=3"), "loads.l.connections=3");
  assertMatch(
    shownAssignment("targets.t.url=http://u:pw12@h"),
    /^targets\.t\.url=http:\/\/u:\[redacted 4 chars/,
  );
  assertMatch(
    shownAssignment('targets.t.env={API_TOKEN: "abc12, PORT: 80'),
    /API_TOKEN: "\[redacted 5 chars/,
  );
  assertMatch(
    shownAssignment("targets.t.env={PORT: 80, DB_PWD: x}"),
    /^targets\.t\.env=\{PORT: 80, DB_PWD: \[redacted 1 chars/,
  );
  assertMatch(shownHeader("Authorization: Bearer abc"), /^Authorization: \[redacted 10 chars/);
  assertMatch(shownHeader("X-Api-Key abc1"), /^X-Api-Key \[redacted 4 chars/);
  assertEquals(shownHeader("Accept: text/html"), "Accept: text/html");
  assertEquals(shownHeader("Authorization:"), "Authorization:");
});

Deno.test("WebSocket subprotocols: tokens offered as subprotocols go, protocol names stay", () => {
  const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln";
  assertEquals(secretSubprotocols(["chat", "graphql-transport-ws", "wamp.2.json", "v12.stomp"]), []);
  assertEquals(secretSubprotocols(["access_token", "opaque"]), ["opaque"]);
  assertEquals(secretSubprotocols(["chat", jwt, "a1B2c3D4e5F6g7H8i9J0k"]), [jwt, "a1B2c3D4e5F6g7H8i9J0k"]);
  assertEquals(secretSubprotocols(["base64url.bearer.authorization.k8s.io.dG9rZW4"]).length, 1);
  const out = JSON.stringify(redactResults(file({
    config: {
      ws: { protocols: ["chat"], headers: { "Sec-WebSocket-Protocol": "access_token, hdrTokenValue" } },
    },
  })));
  ok(!out.includes("hdrTokenValue") && out.includes("access_token") && out.includes('"chat"'), out);
});

Deno.test("an experiment's source is parsed once, however many times its results are redacted", () => {
  // Results are redacted at every write; a source of 100,000 flow steps parsed anew each time made a 1 s
  // run end 20 s later.
  const source = "name: x\nflows:\n" + "  - { name: f, steps: [{ get: /a }] }\n".repeat(3);
  const first = parseSource(source);
  ok(typeof first === "object" && first !== null);
  ok(parseSource(source) === first, "the same parsed value, not a second parse");
  ok(parseSource(`${source}# another\n`) !== first);
  assertEquals(parseSource("[unclosed"), parseSource("[unclosed"));
});

Deno.test("a results file's source is read within the experiment reader's bounds, and its secrets still found", () => {
  // A results file may come from anywhere: 60,000 anchors and aliases in its source took minutes to read.
  const anchors = Array.from({ length: 1_001 }, (_, i) => `  d${i}: &d${i} 1\n`).join("");
  assertEquals(parseSource(`name: x\ndefs:\n${anchors}`), undefined);
  assertEquals(parseSource(`name: x\nl:\n  ${"- ".repeat(100)}1\n`), undefined);
  assertEquals(parseSource(`#${" ".repeat(8 * 2 ** 20)}\nname: x\n`), undefined);
  // JSON past the reader's 1 MiB of YAML is read as JSON: its secret is redacted wherever it appears.
  const requests = Array.from({ length: 60_000 }, (_, i) => ({ path: `/items/${i}` }));
  const source = JSON.stringify({ name: "x", headers: { authorization: "Bearer JSONSECRET77" }, requests });
  ok(source.length > 2 ** 20);
  const out = JSON.stringify(
    redactResults(file({ name: "r", errorMessages: { "sent Bearer JSONSECRET77": 1 } }, source)),
  );
  ok(!out.includes("JSONSECRET77") && out.includes("[redacted "), out.slice(0, 300));
});

Deno.test("a long text with '=' or '@' is redacted in one pass: a scheme is at most 32 letters", async () => {
  // Each letter of a long run began a scheme that was read to the run's end: a 100 KB script request
  // name with an '=' took 10 s per request (the worker was ended as stuck), and quadratically more for
  // longer text. The bound only ends a hung test: the fixed scan needs milliseconds.
  const code = `
    import { redactKnown } from ${JSON.stringify(new URL("./redact.ts", import.meta.url).href)};
    const run = "x".repeat(1_000_000);
    const texts = [run + "=", run + "@", "a://" + run + ":" + run, "1http://u:pw12345@h " + run + "="];
    console.log(JSON.stringify(texts.map((t) => redactKnown(t, ["a-known-secret"]).slice(0, 60))));
  `;
  const config = new URL("../deno.json", import.meta.url).pathname;
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--config", config, code],
    signal: AbortSignal.timeout(60_000),
    stdout: "piped",
    stderr: "piped",
  }).output();
  ok(out.success, `redacting ran past 60 s or failed: ${new TextDecoder().decode(out.stderr)}`);
  const shown: string[] = JSON.parse(new TextDecoder().decode(out.stdout));
  assertEquals(shown.slice(0, 3), ["x".repeat(60), "x".repeat(60), "a://" + "x".repeat(56)]);
  assertMatch(shown[3], /^1http:\/\/u:\[redacted 7 chars sha256:[0-9a-f]{8}\]@h /);
});

Deno.test("a known secret is redacted from any text and any results file, a header's token alone too", () => {
  knowSecrets([["Bearer knownTok-7Yq2", "authorization header"], [
    "envVal-Kk31",
    "API_TOKEN environment variable",
  ]]);
  const line = "server said: authorization=Bearer knownTok-7Yq2 token knownTok-7Yq2 env envVal-Kk31";
  assertEquals(
    redactShown(line),
    `server said: authorization=${redactedToken("Bearer knownTok-7Yq2")} token ${
      redactedToken("knownTok-7Yq2")
    } ` +
      `env ${redactedToken("envVal-Kk31")}`,
  );
  // A results file whose own structure holds neither value: the known ones go, their kinds named.
  const redacted = redactResults(file({ name: "r", errorMessages: { "grpc INTERNAL": { [line]: 2 } } }));
  const [message] = Object.keys(redacted.runs[0].errorMessages["grpc INTERNAL"]!);
  ok(!message.includes("knownTok-7Yq2") && !message.includes("envVal-Kk31"), message);
  ok(redacted.redaction!.kinds.includes("API_TOKEN environment variable"), String(redacted.redaction!.kinds));
});
