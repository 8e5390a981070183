/**
 * @module
 * The experiment-file cases of tests/bad_input_test.ts: every part of the format (loads and their
 * phases, targets of each kind, requests, flows, sweeps, search, thresholds, quick:, Artillery scripts)
 * with a wrong type, an out-of-range value, an unknown name or a missing file; one file with three
 * problems (three lines); and loads over the open-file limit. Data only: the test runs them.
 */
import { add, type Case, edit, target } from "./bad_input_shapes.ts";

/** An Artillery script with one phase, run as it is (scenarios/artillery/convert.ts converts it). */
const artillery = (url: string, phase: string) =>
  `config:\n  target: "${
    url.replace(/\/$/, "")
  }"\n  phases:\n    - ${phase}\nscenarios:\n  - flow:\n      - get: { url: "/" }\n`;

export const FIELDS: Case[] = [
  {
    name: "connections wrong type",
    yaml: edit("connections: 2,", 'connections: "two",'),
    names: [/loads\.closed\.connections: expected a whole number/],
  },
  {
    name: "connections in Arabic-Indic digits",
    yaml: edit("connections: 2,", 'connections: "٤",'),
    names: [/loads\.closed\.connections: expected a whole number, found "٤" \(write its digits as 0-9\)/],
  },
  // A value two checks refuse (a whole number past its range too, a URL of no scheme) is one line.
  { name: "repeats 1e300", yaml: add("repeats: 1e300\n"), names: [/repeats: must be <= 9007199254740991/] },
  {
    name: "coldStartRequests 1e300",
    yaml: add("coldStartRequests: 1e300\n"),
    names: [/coldStartRequests: .*0\.\.1000/],
  },
  {
    name: "target url abc",
    yaml: target('{ url: "abc" }'),
    names: [/targets\.t\.url: url must be an absolute URL/],
  },
  {
    name: "connections 0",
    yaml: edit("connections: 2,", "connections: 0,"),
    names: [/loads\.closed\.connections: .*>= 1/],
  },
  {
    name: "duration without unit",
    yaml: edit("duration: 200ms }", "duration: 10 }"),
    names: [/loads\.closed\.duration: expected a duration/],
  },
  {
    name: "duration with a space after it",
    yaml: edit("duration: 200ms }", 'duration: "200ms " }'),
    names: [/loads\.closed\.duration: "200ms " has a space before or after it: drop it/],
  },
  {
    name: "duration 0s",
    yaml: edit("duration: 200ms }", "duration: 0s }"),
    names: [/loads\.closed\.duration: .*> 0/],
  },
  {
    name: "phase rampTo negative",
    yaml: edit("rampTo: 20", "rampTo: -20"),
    names: [/loads\.burst\.phases\[1\]\.rampTo: .*>= 0/],
  },
  {
    name: "phase duration 0s",
    yaml: edit("{ duration: 100ms, rate: 10 }", "{ duration: 0s, rate: 10 }"),
    names: [/loads\.burst\.phases\[0\]\.duration: .*> 0/],
  },
  {
    name: "model unknown",
    yaml: edit("model: connections", "model: closed"),
    names: [/loads\.closed\.model: expected one of/],
  },
  {
    name: "load field unknown",
    yaml: edit("connections: 2,", "conections: 2,"),
    names: [/loads\.closed\.conections: unknown key; did you mean "connections"/],
  },
  {
    name: "top-level key unknown",
    yaml: add("repeat: 2\n"),
    names: [/repeat: unknown key; did you mean "repeats"/],
  },
  { name: "repeats 0", yaml: add("repeats: 0\n"), names: [/repeats: .*>= 1/] },
  { name: "interval 0s", yaml: add("interval: 0s\n"), names: [/^[^:]+: interval: .*>= 10ms/] },
  { name: "order unknown", yaml: add("order: random\n"), names: [/order: expected one of/] },
  {
    name: "baseline unknown target",
    yaml: add("baseline: nope\n"),
    names: [/baseline: no target named "nope"/],
  },
  {
    name: "threshold unknown load",
    yaml: add('thresholds: [{expr: "p99 < 1s", load: nope}]\n'),
    names: [/thresholds\[0\]\.load: no load named "nope"/],
  },
  {
    name: "sweep parameter unknown",
    yaml: add("sweeps: [{parameter: load.bogus, values: [1]}]\n"),
    names: [/sweeps\[0\]\.parameter: load\.bogus cannot be varied/],
  },
  {
    name: "sweep value 0 connections",
    yaml: add("sweeps: [{parameter: load.connections, values: [4, 0], loads: [closed]}]\n"),
    names: [/sweeps\[0\]\.values\[1\]: connections must be >= 1/],
  },
  {
    name: "sweep protocol word unknown",
    yaml: add("sweeps: [{parameter: load.protocol, values: [http1, h4]}]\n"),
    names: [
      /sweeps\[0\]\.values\[1\]: "h4" is not a load\.protocol value; use one of http1, h2, h2c, h3, auto/,
    ],
  },
  {
    name: "search maxProbes 0",
    yaml: add(
      'search: {parameter: load.connections, load: closed, range: [1, 10], slo: "p99 < 1s", maxProbes: 0}\n',
    ),
    names: [/search\.maxProbes: .*>= 1/],
  },
  { name: "name not a name", yaml: edit("name: base", 'name: "a b"'), names: [/name: names use letters/] },
  // A name becomes a folder (out/<name>, logs/<target>): over 255 bytes the filesystem refused it mid-run.
  {
    name: "name too long",
    yaml: edit("name: base", `name: ${"n".repeat(300)}`),
    names: [/^[^:]+: name: .*300 characters.*at most 100/],
  },
  {
    name: "target name too long",
    yaml: edit("  t: {", `  ${"t".repeat(300)}: {`),
    names: [/targets\.t{300}: .*300 characters.*at most 100/],
  },
  {
    name: "target kind unknown",
    yaml: target("{ kind: builtn }"),
    names: [/targets\.t\.kind: .*did you mean "builtin"/],
  },
  {
    name: "target port negative",
    yaml: target("{ kind: builtin, port: -1 }"),
    names: [/targets\.t\.port: .*>= 0/],
  },
  {
    name: "target instances 0",
    yaml: target("{ kind: builtin, instances: 0 }"),
    names: [/targets\.t\.instances: .*>= 1/],
  },
  {
    name: "target cms key unknown",
    yaml: target("{ kind: builtin, cms: { pool: 3 } }"),
    names: [/targets\.t\.cms\.pool: unknown key/],
  },
  {
    name: "target staticDir missing",
    yaml: target("{ kind: builtin, staticDir: /nonexistent/loadlab }"),
    names: [/targets\.t\.staticDir: .*no such folder/],
  },
  {
    name: "external command missing",
    yaml: target('{ kind: external, command: loadlab-no-such-program, url: "http://127.0.0.1:1" }'),
    names: [/targets\.t\.command: .*no such program/],
  },
  {
    name: "external cwd a file",
    yaml: (c) => target(`{ kind: external, command: sh, cwd: ${c.file}, url: "http://127.0.0.1:1" }`)(c),
    names: [/targets\.t\.cwd: .*not a folder/],
  },
  {
    name: "target url with port 65536",
    yaml: target('{ url: "http://127.0.0.1:65536/" }'),
    names: [/targets\.t\.url: port "65536" is not a number from 1 to 65535/],
  },
  {
    name: "external url without http://",
    yaml: target('{ kind: external, command: sh, url: "localhost:3000" }'),
    names: [/targets\.t\.url: url must start with http:\/\//],
  },
  {
    name: "sweep target.instances 0",
    yaml: (c) =>
      target("{ kind: builtin }")(c) + "sweeps: [{parameter: target.instances, values: [0], targets: [t]}]\n",
    names: [/sweeps\[0\]\.values\[0\]: instances must be >= 1/],
  },
  {
    name: "count maxConnections without rate",
    yaml: edit(
      "model: connections, connections: 2, duration: 200ms",
      "model: count, requests: 5, maxConnections: 10",
    ),
    names: [/loads\.closed\.maxConnections: caps open pacing only/],
  },
  {
    name: "proxy upstream unknown",
    yaml: target("{ kind: proxy, upstream: nope }"),
    names: [/targets\.t\.upstream: no target named "nope"/],
  },
  {
    name: "proxy rateLimit.limit 0",
    yaml: target("{ kind: proxy, upstream: u, rateLimit: { limit: 0, windowMs: 1000 } }"),
    names: [/targets\.t\.rateLimit\.limit: .*>= 1/],
  },
  {
    name: "request weight 0",
    yaml: add("requests: [{path: /a, weight: 0}]\n"),
    names: [/requests\[0\]\.weight: .*> 0/],
  },
  {
    name: "request header name not a token",
    yaml: add('requests: ["/", {path: /a, headers: {"x:bad": v}}]\n'),
    names: [/requests\[1\]\.headers\["x:bad"\]: header name "x:bad" is not a token/],
  },
  {
    name: "request header value with CR LF",
    yaml: add('requests: [{path: /a, headers: {x-a: "v\\r\\nX-Injected: 1"}}]\n'),
    names: [/requests\[0\]\.headers\.x-a: header values cannot contain line breaks/],
  },
  {
    name: "request header value with a trailing space",
    yaml: add('requests: [{path: /a, headers: {x-a: "v "}}]\n'),
    names: [/requests\[0\]\.headers\.x-a: header values cannot start or end with a space/],
  },
  {
    name: "request path with NUL",
    yaml: add('requests: [{path: "/a\\0b"}]\n'),
    names: [/requests\[0\]\.path: a path cannot contain .*NUL; percent-encode/],
  },
  {
    name: "flow step path with LF",
    yaml: add('flows: [{name: f, steps: [{get: "/a\\nb"}]}]\n'),
    names: [/flows\[0\]\.steps\[0\]\.get: a path cannot contain .*line breaks/],
  },
  {
    name: "flow step header value with LF",
    yaml: add('flows: [{name: f, steps: [{get: {path: /a, headers: {x-a: "a\\nb"}}}]}]\n'),
    names: [/flows\[0\]\.steps\[0\]\.get\.headers\.x-a: header values cannot contain line breaks/],
  },
  {
    name: "throughput load beside flows only (it would send GET /)",
    yaml: add(
      "  thr: { model: throughput, rate: 10, connections: 1, duration: 200ms }\nflows: [{name: f, steps: [{get: /a}]}]\n",
    ),
    names: [/loads\.thr: runs none of the file's flows .*give it mix: or the file requests:/],
  },
  {
    name: "request tag name a threshold cannot select by",
    yaml: add('requests: ["/", {path: /a, tags: {"a,b": "c:d}"}}]\n'),
    names: [/^[^:]*: requests\[1\]\.tags\["a,b"\]: a tag name is letters, digits, _ \. -/],
  },
  {
    name: "request tag named as a selector's own key",
    yaml: add('requests: ["/", {path: /a, tags: {method: x}}]\n'),
    names: [/requests\[1\]\.tags\.method: a selector's \{method:\.\.\.\} is the request's own method/],
  },
  {
    name: "request named as the endpoints past the cap",
    yaml: add('requests: ["/", {path: /a, name: "(other)"}]\n'),
    names: [/requests\[1\]\.name: \(other\) is where loadlab counts the endpoints past its cap/],
  },
  {
    name: "flow step header Host twice",
    yaml: add("flows: [{name: f, steps: [{get: {path: /a, headers: {Host: a, host: b}}}]}]\n"),
    names: [/flows\[0\]\.steps\[0\]\.get\.headers\.host: Host is given twice: drop one/],
  },
  {
    name: "flow step header framing its own body",
    yaml: add(
      'flows: [{name: f, steps: [{post: {path: /a, body: abcdefghij, headers: {content-length: "5"}}}]}]\n',
    ),
    names: [/flows\[0\]\.steps\[0\]\.post\.headers\.content-length: content-length is loadlab's to set/],
  },
  {
    name: "flow check with an unknown placeholder",
    yaml: add('flows: [{name: f, steps: [{get: /a, expect: [{contains: "{{ token }}"}]}]}]\n'),
    names: [/flows\[0\]\.steps\[0\]\.expect\[0\]: \{\{ token \}\} is unknown/],
  },
  {
    name: "flow capture regexp that does not compile",
    yaml: add('flows: [{name: f, steps: [{get: /a, capture: [{regexp: "id=([0-9]+", as: id}]}]}]\n'),
    names: [
      /flows\[0\]\.steps\[0\]\.capture\[0\]\.regexp: Invalid regular expression: .*: write a JavaScript regular/,
    ],
  },
  {
    name: "flow capture JSON path loadlab cannot read",
    yaml: add('flows: [{name: f, steps: [{get: /a, capture: [{json: "$..id", as: id}]}]}]\n'),
    names: [
      /flows\[0\]\.steps\[0\]\.capture\[0\]\.json: \$\.\.id: not a JSON path loadlab reads at "\.\.id": use/,
    ],
  },
  {
    name: "ws wait JSON path loadlab cannot read",
    yaml: add(
      'flows: [{name: f, steps: [{ws: {connect: /ws}}, {ws: {wait: {json: "$[?(@.a)]", exists: true}}}]}]\n',
    ),
    names: [/flows\[0\]\.steps\[1\]\.ws\.wait\.json: .*not a JSON path loadlab reads at "\[\?\(@\.a\)\]"/],
  },
  {
    name: "flow capture group past its regexp's groups",
    yaml: add(
      'flows: [{name: f, steps: [{get: /a, capture: [{regexp: "id=([0-9]+)", group: 2, as: id}]}]}]\n',
    ),
    names: [/flows\[0\]\.steps\[0\]\.capture\[0\]\.group: group 2 is past the regexp's 1 group: give 0/],
  },
  {
    name: "ws wait regexp that does not compile",
    yaml: add('flows: [{name: f, steps: [{ws: {connect: /ws}}, {ws: {wait: {regexp: "(("}}}]}]\n'),
    names: [
      /flows\[0\]\.steps\[1\]\.ws\.wait\.regexp: Invalid regular expression: .*: write a JavaScript regular/,
    ],
  },
  {
    name: "data file with a column named twice among 200,000",
    yaml: (c) => {
      const columns = Array.from({ length: 200_000 }, (_, i) => `c${i}`);
      // The repeat last, so a check comparing each column with every one before it takes minutes.
      Deno.writeTextFileSync(
        `${c.dir}/wide.csv`,
        `${[...columns, "c0"].join(",")}\n${"1,".repeat(200_000)}1\n`,
      );
      return `${c.base}data:\n  rows: { file: ${c.dir}/wide.csv }\n`;
    },
    names: [
      /data\.rows\.file: \S*wide\.csv:1: column "c0" appears twice in the header \(columns 1 and 200001\); rename one/,
    ],
  },
  {
    name: "ws connect mistyped: two lines, none about sends with no WebSocket open",
    yaml: add("flows: [{name: f, steps: [{ws: {conect: /ws}}, {ws: {send: hi}}]}]\n"),
    names: [
      /flows\[0\]\.steps\[0\]\.ws\.conect: unknown key; did you mean "connect"\?/,
      /flows\[0\]\.steps\[0\]\.ws: a ws step needs one of connect, send, wait or close/,
    ],
  },
  {
    name: "65 loads run together (each on a worker isolate of its own)",
    yaml: (c) => {
      const names = Array.from({ length: 65 }, (_, i) => `l${i}`);
      const loads = names.map((n) => `  ${n}: { model: count, requests: 1, connections: 1 }\n`).join("");
      const together = names.map((n) => `${n}: 0s`).join(", ");
      return `name: many\ntargets:\n  t: { url: "${c.url}" }\nloads:\n${loads}together: { ${together} }\n`;
    },
    names: [/together: 65 load workers would run at once, at most 64 in a run/],
  },
  {
    // Each load run together is checked as its own, not only the first (the run's attack).
    name: "a second load run together with a zero duration",
    yaml: (c) =>
      `name: tog\ntargets:\n  t: { url: "${c.url}" }\nloads:\n  a: { model: connections, connections: 1, duration: 1s }\n  b: { model: connections, connections: 1, duration: 0s }\ntogether: { a: 0s, b: 0s }\n`,
    names: [/loads\.b\.duration: duration must be > 0 \(in run t\/a\+b\)/],
  },
  {
    // Shown escaped: a zero-width space would make the line name what looks like a valid "app".
    name: "target name with a zero-width space",
    yaml: (c) =>
      `name: zw\ntargets:\n  "a\\u200bpp": { url: "${c.url}" }\nloads:\n  l: { model: count, requests: 1, connections: 1 }\n`,
    names: [/targets\["a\\u200bpp"\]: target names use letters, digits/],
  },
  {
    name: "flow think without unit",
    yaml: add("flows: [{name: f, steps: [{think: 5}]}]\n"),
    names: [/flows\[0\]\.steps\[0\]\.think: expected a duration/],
  },
  {
    name: "workers 0",
    yaml: edit("connections: 2,", "connections: 2, workers: 0,"),
    names: [/loads\.closed\.workers: .*>= 1/],
  },
  {
    name: "throughput rate 0",
    yaml: edit(
      "model: connections, connections: 2, duration: 200ms",
      "model: throughput, rate: 0, duration: 1s",
    ),
    names: [/loads\.closed\.rate: .*> 0/],
  },
  {
    name: "count requests wrong type",
    yaml: edit("model: connections, connections: 2, duration: 200ms", "model: count, requests: many"),
    names: [/loads\.closed\.requests: expected/],
  },
  {
    name: "quick section broken",
    yaml: add("quick: { repeats: 0 }\n"),
    names: [/repeats: .*\(with --quick\)/],
  },
  {
    name: "artillery phase of 0 seconds",
    yaml: (c) => artillery(c.url, "{ duration: 0, arrivalRate: 5 }"),
    names: [/config\.phases\[0\]\.duration: must be > 0 seconds/],
  },
  {
    name: "artillery phase of 400 digits (a number past a double's range)",
    yaml: (c) => artillery(c.url, `{ duration: ${"9".repeat(400)}, arrivalRate: 5 }`),
    names: [/config\.phases\[0\]\.duration: Infinity seconds is too long: at most 7 days/],
  },
  {
    name: "artillery arrivalRate negative",
    yaml: (c) => artillery(c.url, "{ duration: 1, arrivalRate: -1 }"),
    names: [/config\.phases\[0\]\.arrivalRate: expected a number >= 0/],
  },
  // The place once, at the start: the parser's own "at line 2, column 1:" is not repeated after it.
  {
    name: "not YAML",
    yaml: () => "name: [\n",
    names: [/^[^:]+: line 2, column 1: not valid YAML or JSON: [^:]*\]$/],
  },
  {
    name: "YAML nested by indentation past the limit",
    yaml: (c) =>
      `${c.base}x:\n${Array.from({ length: 1_400 }, (_, i) => `${" ".repeat(i + 1)}a:\n`).join("")}`,
    names: [
      /line \d+: lists and mappings must nest at most 64 levels, by indentation/,
    ],
  },
  {
    name: "three problems: one line each",
    yaml: (c) =>
      edit("connections: 2,", "connections: 0,")(c).replace("rampTo: 20", "rampTo: -20") + "repeats: 0\n",
    names: [/loads\.closed\.connections/, /loads\.burst\.phases\[1\]\.rampTo/, /repeats/],
  },
  {
    name: "connections over the open-file limit",
    yaml: edit("connections: 2,", "connections: 300,"),
    names: [/loads\.closed\.connections: 300 needs 300 sockets.*limit is 256.*ulimit -n 512/],
    ulimit: 256,
  },
  {
    name: "maxConnections over the open-file limit",
    yaml: edit("model: rate\n", "model: rate\n    maxConnections: 1000\n"),
    names: [/loads\.burst\.maxConnections: 1000 needs.*ulimit -n/],
    ulimit: 256,
  },
  {
    name: "name ..",
    yaml: edit("name: base", 'name: ".."'),
    names: [/^[^:]+: name: "\.\." is a path segment/],
  },
  { name: "name .", yaml: edit("name: base", 'name: "."'), names: [/^[^:]+: name: "\." is a path segment/] },
  { name: "name empty", yaml: edit("name: base", 'name: ""'), names: [/^[^:]+: name: names use letters/] },
  { name: "name with a slash", yaml: edit("name: base", 'name: "a/b"'), names: [/name: names use letters/] },
  { name: "name with a backslash", yaml: edit("name: base", 'name: "a\\\\b"'), names: [/name: names use/] },
  { name: "name CON", yaml: edit("name: base", "name: CON"), names: [/name: "CON" is a device name/] },
  { name: "name com1.txt", yaml: edit("name: base", "name: com1.txt"), names: [/"com1\.txt" is a device/] },
  { name: "name with a trailing dot", yaml: edit("name: base", "name: api."), names: [/name: "api\." ends/] },
  {
    name: "target named ..",
    yaml: edit('t: { url: "', '"..": { url: "'),
    names: [/targets\["\.\."\]: target name "\.\." is a path segment/],
  },
  {
    name: "targets differing only in case",
    yaml: (c) => edit('t: { url: "', 'T: { url: "http://127.0.0.1:1/" }\n  t: { url: "')(c),
    names: [/targets\.t: "t" and "T" differ only in case; each names its log folder/],
  },
  {
    name: "load named NUL",
    yaml: edit("burst:", "NUL:"),
    names: [/loads\.NUL: load name "NUL" is a device/],
  },
  {
    name: "YAML alias bomb",
    yaml: () => LAUGHS,
    names: [/\(file\): its aliases \(\*name\) expand more than 100 times/],
  },
  {
    name: "key given twice",
    yaml: add("repeats: 2\nrepeats: 3\n"),
    names: [/line \d+, column 1: not valid YAML or JSON: the key "repeats" must appear once/],
  },
  {
    name: "target named __proto__",
    yaml: edit("  t: { url:", "  __proto__: { url:"),
    names: [/targets\.__proto__: __proto__ is a reserved word/],
  },
  {
    name: "load named constructor",
    yaml: edit("  closed: {", "  constructor: {"),
    names: [/loads\.constructor: "constructor" is a reserved word, not a load name/],
  },
  {
    name: "target named prototype",
    yaml: target("{ kind: builtin }\n  prototype: { kind: builtin }"),
    names: [/targets\.prototype: "prototype" is a reserved word, not a target name/],
  },
  {
    name: "load rate over the cap",
    yaml: edit("{ duration: 100ms, rate: 10 }", "{ duration: 100ms, rate: 20000000 }"),
    names: [/loads\.burst\.phases\[0\]\.rate: rate must be at most 10,000,000/],
  },
  {
    name: "load duration over 7 days",
    yaml: edit("duration: 200ms }", "duration: 99999999999h }"),
    names: [/loads\.closed\.duration: "99999999999h" is too long: durations must be at most 7 days/],
  },
  {
    name: "artillery arrivalRate over the cap",
    yaml: (c) => artillery(c.url, "{ duration: 10, arrivalRate: 1000000000 }"),
    names: [/config\.phases\[0\]\.arrivalRate: rate must be at most 10,000,000/],
  },
  {
    name: "artillery script with problems of the import and of the experiment it becomes",
    yaml: (c) =>
      artillery(c.url, "{ duration: 2, arrivalRate: -3 }").replace(
        '- get: { url: "/" }',
        '- get: { url: "/", headers: { Content-Length: "5" } }\n      - think: abc',
      ),
    names: [
      /config\.phases\[0\]\.arrivalRate: expected a number >= 0/,
      /scenarios\[0\]\.flow\[1\]\.think: expected seconds/,
      /scenarios\[0\]\.flow\[0\]\.get\.headers\.Content-Length: .*drop the header/,
    ],
  },
  {
    name: "lone CR line ends",
    yaml: (c) => c.base.replaceAll("\n", "\r"),
    names: [/\(file\): its lines end in a lone CR: use LF or CRLF/],
  },
  { name: "two documents", yaml: (c) => `${c.base}---\n${c.base}`, names: [/a second document .*give one/] },
  {
    name: "duration with a unit twice",
    yaml: edit("duration: 200ms }", "duration: 1h1h }"),
    names: [/loads\.closed\.duration: "1h1h" is not a duration; .*each unit once/],
  },
  {
    name: "merge key of a scalar",
    yaml: edit("  closed: {", "  closed: { <<: 5,"),
    names: [/\(file\): a merge key \(<<\) takes a mapping or a list of mappings/],
  },
  {
    name: "alias with no anchor",
    yaml: add("strict: *nope\n"),
    names: [/\(file\): the alias \*nope has no anchor &nope before it/],
  },
  {
    name: "a tag the reader cannot resolve",
    yaml: add("repeats: !custom 2\n"),
    names: [/Unresolved tag: !custom/],
  },
  {
    name: "JSON with a // comment",
    yaml: (c) => `{\n  // the experiment\n  "name": "x", "targets": { "t": { "url": "${c.url}" } }\n}\n`,
    names: [/line 2: \/\/ starts no comment in JSON or YAML/],
  },
  {
    name: "JSON with a /* */ comment after a value, a // in a string kept",
    yaml: (c) => `{ "name": "x", /* the name */ "targets": { "t": { "url": "${c.url}" } } }\n`,
    names: [/line 1: \/\* starts no comment in JSON or YAML/],
  },
  {
    name: "a key with a no-break space",
    yaml: edit("duration: 200ms }", "\u00a0duration: 200ms }"),
    names: [/\["\\u00a0duration"\]: unknown key; did you mean "duration"\?/],
  },
  {
    name: "an unknown top-level key (an anchor's holder)",
    yaml: add("defaults: &d { connections: 1 }\n"),
    names: [/defaults: unknown key; allowed: name, .*, \.\.\. \(loadlab schema lists all \d+\)/],
  },
  {
    name: "an environment variable in the file",
    yaml: edit("duration: 200ms }", "duration: ${DURATION} }"),
    names: [/line \d+: \$\{DURATION\} is not expanded: .*--set PATH="\$DURATION"/],
  },
  {
    name: "target url port 0",
    yaml: (c) => c.base.replace(c.url, "http://127.0.0.1:0/"),
    names: [/targets\.t\.url: port 0 is no server's/],
  },
];

/** A "billion laughs" file: nine levels of nine aliases each, 9^9 strings if every alias expanded. */
const LAUGHS = ["a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]"].concat(
  "bcdefghi".split("").map((name, k) => {
    const prev = "abcdefghi"[k];
    return `${name}: &${name} [${Array(9).fill(`*${prev}`).join(", ")}]`;
  }),
).join("\n") + "\n";
