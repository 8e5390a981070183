/**
 * k6's `--out csv` and `--out influxdb` through `loadlab run` against the built-in target, each as k6 v1.8.1
 * wrote them for the same script: the CSV's header and one row per sample (the NDJSON's points), gzipped
 * for a `.gz` name; InfluxDB's `CREATE DATABASE` and its line protocol POSTed to a receiver in this test; an
 * unreachable server logged and the run's exit unchanged; a bad value named with its fix.
 */
import { deepStrictEqual as assertEquals, ok } from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { withTarget } from "./helpers.ts";
import { runK6Text } from "./k6_run.ts";

const script = (url: string) =>
  `import http from "k6/http";
import { check, group } from "k6";
export const options = { vus: 2, iterations: 4 };
export default function () {
  group("g one", () => check(http.get("${url}/json?a=1,2", { tags: { team: "web" } }), { ok: (r) => r.status === 200 }));
}
`;

/** How many samples of each metric, sorted by name. */
const counts = (names: string[]) =>
  Object.entries(Object.groupBy(names, (n) => n)).map(([n, all]) => `${n}:${all!.length}`).sort();

Deno.test("--out csv: k6's header and a row per sample (the NDJSON's points); a .gz name gzipped", () =>
  withTarget(async (url) => {
    const run = await runK6Text(script(url), null, ["-q", "--out", "csv=p.csv.gz", "--out", "json=p.json"], {
      env: { K6_CSV_TIME_FORMAT: "unix_milli" },
    });
    assertEquals(run.code, 0, run.text);
    const [header, ...rows] = new TextDecoder().decode(gunzipSync(Deno.readFileSync(`${run.dir}/p.csv.gz`)))
      .trimEnd().split("\n");
    assertEquals(
      header,
      "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto," +
        "scenario,service,status,subproto,tls_version,url,extra_tags,metadata",
    );
    const points = Deno.readTextFileSync(`${run.dir}/p.json`).trim().split("\n").map((l) => JSON.parse(l))
      .filter((l) => l.type === "Point");
    assertEquals(counts(rows.map((r) => r.split(",")[0])), counts(points.map((p) => p.metric)));
    const request = rows.find((r) => r.startsWith("http_reqs,"))!;
    const quoted = `"${url}/json?a=1,2"`;
    const expected = `1.000000,,,,true,::g one,GET,${quoted},HTTP/1.1,default,,200,,,${quoted},team=web,`;
    assertEquals(request.split(",").slice(2).join(","), expected);
    ok(Math.abs(Number(request.split(",")[1]) - Date.now()) < 120_000, request);
  }));

/** One line of InfluxDB's line protocol: measurement, tags, fields, time (escapes undone). */
function parseLine(line: string) {
  const parts = line.match(/(?:\\.|"(?:\\.|[^"\\])*"|[^ ])+/g)!;
  const pairs = (text: string) =>
    Object.fromEntries(
      (text.match(/(?:\\.|"(?:\\.|[^"\\])*"|[^,])+/g) ?? []).map((kv) => kv.split(/(?<!\\)=(.*)/s, 2)),
    );
  const [measurement, ...tags] = parts[0].match(/(?:\\.|[^,])+/g)!;
  return { measurement, tags: pairs(tags.join(",")), fields: pairs(parts[1]), ns: parts[2] };
}

Deno.test("--out influxdb: CREATE DATABASE, then batches of line protocol at /write?db=, url a field", async () => {
  const got: { url: string; auth: string | null; body: string }[] = [];
  const receiver = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (req) => {
    got.push({ url: req.url, auth: req.headers.get("authorization"), body: await req.text() });
    return new Response(null, { status: 204 });
  });
  try {
    await withTarget(async (url) => {
      const influx = `http://u:pw@127.0.0.1:${receiver.addr.port}/mydb`;
      const run = await runK6Text(script(url), null, ["-q", "--out", `influxdb=${influx}`], {
        env: { K6_INFLUXDB_PUSH_INTERVAL: "200ms" },
      });
      assertEquals(run.code, 0, run.text);
      const origin = `http://127.0.0.1:${receiver.addr.port}`;
      assertEquals(got[0].url, `${origin}/query?db=&params=%7B%7D&q=CREATE+DATABASE+mydb`);
      ok(got.every((g) => g.auth === `Basic ${btoa("u:pw")}`));
      const writes = got.slice(1);
      ok(
        writes.every((w) => w.url === `${origin}/write?consistency=&db=mydb&precision=ns&rp=`),
        writes[0].url,
      );
      const lines = writes.flatMap((w) => w.body.trimEnd().split("\n")).map(parseLine);
      assertEquals(lines.filter((l) => l.measurement === "http_reqs").length, 4);
      assertEquals(lines.filter((l) => l.measurement === "iterations").length, 4);
      const request = lines.find((l) => l.measurement === "http_reqs")!;
      assertEquals(request.tags, {
        expected_response: "true",
        group: "::g\\ one",
        method: "GET",
        name: `${url}/json?a\\=1\\,2`,
        proto: "HTTP/1.1",
        scenario: "default",
        status: "200",
        team: "web",
      });
      assertEquals(request.fields, { url: `"${url}/json?a=1,2"`, value: "1" });
      ok(/^\d{19}$/.test(request.ns), request.ns);
    });
  } finally {
    await receiver.shutdown();
  }
});

Deno.test("--out influxdb at no server: k6's \"Couldn't write stats\", the run's exit unchanged", () =>
  withTarget(async (url) => {
    const free = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    free.close();
    const run = await runK6Text(script(url), null, [
      "-q",
      "--out",
      `influxdb=http://127.0.0.1:${free.addr.port}`,
    ]);
    assertEquals(run.code, 0, run.text);
    ok(run.stderr.includes(`level=error msg="Couldn't write stats" error=`), run.stderr);
  }));

Deno.test("--out csv and influxdb: a bad value names the problem and the fix", async () => {
  const bad = await runK6Text(script("http://127.0.0.1:9"), null, ["--out", "csv=timeFormat=iso"]);
  ok(bad.code !== 0 && bad.stderr.includes('time format "iso" is none of k6\'s: unix, unix_milli'), bad.text);
  const query = await runK6Text(script("http://127.0.0.1:9"), null, [
    "--out",
    "influxdb=http://h:8086/k6?bogus=x",
  ]);
  ok(query.code !== 0 && query.stderr.includes("give insecure=, pushInterval="), query.text);
});
