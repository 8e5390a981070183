import assert from "node:assert/strict";
import { strToU8, zipSync } from "fflate";
import { makeSingleAttack } from "../tests/fixtures/make_results.ts";
import { loadBaselineUrl, tokenAllowed } from "./baseline_flags.ts";
import { loadBaseline, readGate } from "./baseline_flags.ts";
import { parseFailOnList } from "../results/fail_on.ts";
import { ResultsFileError } from "../results/mod.ts";

const RESULTS = JSON.stringify(makeSingleAttack());

/** A local server: each path answers as `routes` says; every request's path and Authorization recorded. */
async function withServer(
  routes: Record<string, () => Response | Promise<Response>>,
  fn: (base: string, seen: Array<{ path: string; auth: string | null }>) => Promise<void>,
): Promise<void> {
  const seen: Array<{ path: string; auth: string | null }> = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
    const path = new URL(req.url).pathname;
    seen.push({ path, auth: req.headers.get("authorization") });
    return routes[path]?.() ?? new Response("no", { status: 404 });
  });
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`, seen);
  } finally {
    await server.shutdown();
  }
}

const zip = (files: Record<string, string>) =>
  zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));

async function refusal(url: string, opts: Parameters<typeof loadBaselineUrl>[1] = {}): Promise<string> {
  const err = await loadBaselineUrl(url, opts).then(() => null, (e) => e);
  assert.ok(err instanceof ResultsFileError, `expected a ResultsFileError, got ${err}`);
  return err.message;
}

Deno.test("a baseline URL answering JSON, a folder URL, and a zip holding results.json (after a redirect)", async () => {
  await withServer({
    "/main/results.json": () => Response.json(JSON.parse(RESULTS)),
    "/artifacts/7/zip": () => new Response(null, { status: 302, headers: { location: "/blob/7.zip" } }),
    "/blob/7.zip": () =>
      new Response(zip({ "logs/x.txt": "x", "results.json": RESULTS, "report.html": "<p>" })),
  }, async (base, seen) => {
    assert.equal((await loadBaseline(`${base}/main/results.json`)).runs[0].name, "attack");
    assert.equal((await loadBaselineUrl(`${base}/main/`, { token: "t0ken" })).runs.length, 1);
    const fromZip = await loadBaselineUrl(`${base}/artifacts/7/zip`, { token: "t0ken" });
    assert.equal(fromZip.experiment.name, makeSingleAttack().experiment.name);
    assert.deepEqual(seen.map((s) => s.path), [
      "/main/results.json",
      "/main/results.json",
      "/artifacts/7/zip",
      "/blob/7.zip",
    ]);
    assert.ok(seen.every((s) => s.auth === null), "the token goes to GitHub's hosts over https only");
  });
});

Deno.test("GITHUB_TOKEN goes only to api.github.com and *.githubusercontent.com, over https", () => {
  assert.equal(tokenAllowed(new URL("https://api.github.com/repos/o/r/actions/artifacts/1/zip")), true);
  assert.equal(tokenAllowed(new URL("https://pipelines.actions.githubusercontent.com/x")), true);
  assert.equal(tokenAllowed(new URL("http://api.github.com/x")), false);
  assert.equal(tokenAllowed(new URL("https://productionresultssa0.blob.core.windows.net/x")), false);
  assert.equal(tokenAllowed(new URL("https://api.github.com.evil.example/x")), false);
  assert.equal(tokenAllowed(new URL("https://evilgithubusercontent.com/x")), false);
});

Deno.test("refusals name the URL and the fix", async () => {
  await withServer({
    "/gone": () => new Response("", { status: 410 }),
    "/private": () => new Response("", { status: 401 }),
    "/html": () => new Response("<html>"),
    "/empty.zip": () => new Response(zip({ "other.json": "{}" })),
    "/big.json": () => new Response(RESULTS),
    "/wrong.json": () => Response.json({ schema: "something/else" }),
    "/loop": () => new Response(null, { status: 302, headers: { location: "/loop" } }),
    "/slow": () => new Promise((resolve) => setTimeout(() => resolve(new Response(RESULTS)), 1_500)),
  }, async (base) => {
    assert.match(await refusal(`${base}/gone`), /\/gone: HTTP 410: nothing there \(an expired artifact/);
    assert.match(
      await refusal(`${base}/private`),
      /HTTP 401: the server wants credentials; GITHUB_TOKEN is sent only/,
    );
    assert.match(await refusal(`${base}/html`), /\/html: neither a results.json nor a zip holding one/);
    assert.match(
      await refusal(`${base}/empty.zip`),
      /the zip holds no results.json \(it holds: other.json\)/,
    );
    assert.match(await refusal(`${base}/big.json`, { maxBytes: 100 }), /larger than 100 bytes/);
    assert.match(await refusal(`${base}/wrong.json`), /not a loadlab results file/);
    assert.match(await refusal(`${base}/loop`), /more than 5 redirects/);
    assert.match(await refusal(`${base}/slow`, { timeoutMs: 300 }), /no complete answer within 0.3 s/);
    assert.match(
      await refusal("http://127.0.0.1:9/results.json"),
      /127.0.0.1:9\/results.json: cannot fetch: /,
    );
    assert.match(
      await refusal(`${base}/x?token=s3cr3tvalue`),
      /\[redacted/,
      "the URL's secrets are not printed",
    );
  });
});

Deno.test("the zip's results.json is cut at the size cap, not read", async () => {
  await withServer({ "/a.zip": () => new Response(zip({ "out/results.json": RESULTS })) }, async (base) => {
    assert.match(
      await refusal(`${base}/a.zip`, { maxBytes: RESULTS.length - 1 }),
      /its results.json is larger than/,
    );
    assert.equal((await loadBaselineUrl(`${base}/a.zip`)).runs.length, 1, "a nested results.json is found");
  });
});

Deno.test("only the chosen results.json of a zip is inflated (many entries cannot add up past the cap)", async () => {
  const bytes = zip({ "results.json": RESULTS, "a/results.json": "x".repeat(1000), "b/results.json": "y" });
  // Corrupt the deeper entry's deflate data (block type 3 is invalid): inflating it would throw.
  const name = new TextEncoder().encode("a/results.json");
  const at = bytes.findIndex((_, i) => name.every((b, j) => bytes[i + j] === b));
  bytes[at + name.length] = 0xff;
  await withServer({ "/many.zip": () => new Response(bytes) }, async (base) => {
    assert.equal((await loadBaselineUrl(`${base}/many.zip`)).runs.length, 1);
  });
});

Deno.test("a failed hop after a redirect does not print the signed URL's query", async () => {
  await withServer({
    "/artifact": () =>
      new Response(null, {
        status: 302,
        headers: { location: "http://127.0.0.1:9/blob?sig=S1GNATUREvalue&sv=1" },
      }),
  }, async (base) => {
    const message = await refusal(`${base}/artifact`);
    assert.doesNotMatch(message, /S1GNATUREvalue/, message);
  });
});

Deno.test("a baseline URL of another scheme is named as such, not as a missing file", async () => {
  for (const url of ["file:///etc/passwd", "ftp://host/results.json"]) {
    const err = await loadBaseline(url).then(() => null, (e) => e);
    assert.ok(err instanceof ResultsFileError, String(err));
    assert.match(err.message, /only http\(s\) URLs are fetched/, err.message);
    assert.doesNotMatch(err.message, /no such file/);
  }
});

Deno.test("a zip whose directory claims billions of entries is refused at once, not walked", async () => {
  const base = zip({ "results.json": RESULTS });
  // A zip64 end record (and its locator) claiming 0xF0000000 entries, before the ordinary end record.
  const eocdAt = base.length - 22;
  const record = new Uint8Array(56), locator = new Uint8Array(20);
  new DataView(record.buffer).setUint32(0, 0x06064b50, true);
  new DataView(record.buffer).setUint32(32, 0xF0000000, true);
  new DataView(locator.buffer).setUint32(0, 0x07064b50, true);
  new DataView(locator.buffer).setUint32(8, eocdAt, true);
  const bytes = new Uint8Array(base.length + 76);
  bytes.set(base.subarray(0, eocdAt));
  bytes.set(record, eocdAt);
  bytes.set(locator, eocdAt + 56);
  bytes.set(base.subarray(eocdAt), eocdAt + 76);
  await withServer({ "/claims.zip": () => new Response(bytes) }, async (base) => {
    assert.match(await refusal(`${base}/claims.zip`), /more than 100000 entries/);
  });
});

Deno.test("a gzip- or deflate-encoded answer is inflated by loadlab, under the cap", async () => {
  const encoded = async (format: CompressionFormat) =>
    new Uint8Array(
      await new Response(new Blob([RESULTS]).stream().pipeThrough(new CompressionStream(format)))
        .arrayBuffer(),
    );
  const gzip = await encoded("gzip"), deflate = await encoded("deflate");
  await withServer({
    "/gz/results.json": () => new Response(gzip, { headers: { "content-encoding": "gzip" } }),
    "/deflate/results.json": () => new Response(deflate, { headers: { "content-encoding": "deflate" } }),
    "/br/results.json": () => new Response("x", { headers: { "content-encoding": "br" } }),
  }, async (base) => {
    assert.equal((await loadBaselineUrl(`${base}/gz/`)).runs.length, 1);
    assert.equal((await loadBaselineUrl(`${base}/deflate/`)).runs.length, 1);
    assert.match(await refusal(`${base}/br/`), /Content-Encoding br, which loadlab does not decode/);
    // Decoded bytes count against the cap, not those on the wire.
    assert.match(await refusal(`${base}/gz/`, { maxBytes: RESULTS.length - 1 }), /larger than \d+ bytes/);
  });
});

Deno.test("a local zip holding results.json is read as a URL's zip is; a zip without one says what it holds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "loadlab-baseline-zip-" });
  try {
    await Deno.writeFile(`${dir}/artifact.zip`, zip({ "out/x/report.html": "<p>", "results.json": RESULTS }));
    assert.equal((await loadBaseline(`${dir}/artifact.zip`)).runs[0].name, "attack");
    await Deno.writeFile(`${dir}/other.zip`, zip({ "notes.txt": "hi" }));
    const err = await loadBaseline(`${dir}/other.zip`).then(() => null, (e) => e);
    assert.ok(err instanceof ResultsFileError, String(err));
    assert.match(err.message, /other\.zip: the zip holds no results\.json \(it holds: notes\.txt\)/);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("an HTML baseline (report.html, a sign-in page) says what to give; a 5xx says try again", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/report.html`,
      "<!doctype html>\n<html><body>loadlab report</body></html>",
    );
    await assert.rejects(
      () => loadBaseline(`${dir}/report.html`),
      /report\.html: .*it is HTML: give the results\.json beside report\.html, or an artifact's API URL/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  await withServer({
    "/page": () => new Response("\n  <html>sign in</html>"),
    "/busy": () => new Response("", { status: 503 }),
  }, async (base) => {
    assert.match(await refusal(`${base}/page`), /\/page: .*it is HTML: give the results\.json/);
    assert.match(await refusal(`${base}/busy`), /HTTP 503: the server failed; try again later, or download/);
  });
});

Deno.test("a rule written twice is one rule; the same metric at another limit or endpoint stays", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/results.json`, RESULTS);
    const failOn = parseFailOnList(
      "p50 +20%, P50 > +20%, p(50) +20.0%, p50 +10%, p50{name:GET /} +20%, p50{name:GET /a} +20%",
    );
    const gate = await readGate({ baselinePath: `${dir}/results.json`, failOn });
    assert.deepEqual(gate.failOn.map((f) => f.expression), [
      "p50 +20%",
      "p50 +10%",
      "p50{name:GET /} +20%",
      "p50{name:GET /a} +20%",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
