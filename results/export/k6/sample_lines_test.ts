import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { gunzipSync } from "node:zlib";
import { csvHeader, csvRow, influxLine, linesBytes, type Sample } from "./sample_lines.ts";

const { columns, header } = csvHeader(undefined);
// 2026-11-28T06:29:41.450200Z, in µs since the epoch.
const AT_US = Date.UTC(2026, 10, 28, 6, 29, 41) * 1000 + 450_200;
const request: Sample = [
  "http_reqs",
  AT_US,
  1,
  { expected_response: "true", group: "::g one", method: "GET", name: "http://h/json?a=1,2", team: "web" },
  { vu: "1", iter: "0" },
];

Deno.test("csvHeader: k6's header, its default system tags as columns, sorted; vu and iter never columns", () => {
  assertEquals(
    header,
    "metric_name,timestamp,metric_value,check,error,error_code,expected_response,group,method,name,proto," +
      "scenario,service,status,subproto,tls_version,url,extra_tags,metadata\n",
  );
  assertEquals(csvHeader(["status", "vu", "ip", "method"]).columns, ["ip", "method", "status"]);
});

Deno.test("csvRow: Go's quoting and %f, other tags in extra_tags, metadata, each of k6's time formats", () => {
  assertEquals(
    csvRow(request, columns, "unix"),
    'http_reqs,1795847381,1.000000,,,,true,::g one,GET,"http://h/json?a=1,2",,,,,,,,team=web,vu=1&iter=0\n',
  );
  const times = ["unix_milli", "unix_micro", "unix_nano", "rfc3339", "rfc3339_nano"]
    .map((format) => csvRow(request, [], format).split(",")[1]);
  assertEquals(times, [
    "1795847381450",
    "1795847381450200",
    "1795847381450200000",
    "2026-11-28T06:29:41Z",
    "2026-11-28T06:29:41.4502Z",
  ]);
  assertEquals(
    csvRow(["m", AT_US - 450_200, 0.5, { " a": 'say "hi"' }], [], "rfc3339_nano"),
    'm,2026-11-28T06:29:41Z,0.500000,"\x20a=say ""hi""",\n',
  );
});

Deno.test("influxLine: tags sorted and escaped, empty ones dropped, tagsAsFields typed, time in ns", () => {
  const tags = { ...request[3], url: 'http://h/"x"', status: "200", vu: "3", group: "" };
  const fields = { url: "string", vu: "int", status: "bool" } as const;
  assertEquals(
    influxLine(["http req", AT_US, 2.5, tags], fields),
    "http\\ req,expected_response=true,method=GET,name=http://h/json?a\\=1\\,2,team=web " +
      'status="200",url="http://h/\\"x\\"",value=2.5,vu=3i 1795847381450200000\n',
  );
  assertEquals(
    influxLine(["m", AT_US, 1, { ok: "true", n: "x1" }], { ok: "bool", n: "float" }),
    'm n="x1",ok=true,value=1 1795847381450200000\n',
  );
});

Deno.test("linesBytes: a .gz file's lines as one gzip member", () => {
  assertEquals(new TextDecoder().decode(gunzipSync(linesBytes("p.csv.gz", "a\n"))), "a\n");
  assertEquals(new TextDecoder().decode(linesBytes("p.csv", "a\n")), "a\n");
});
