/**
 * @module
 * The per-run section: a picker, then the chosen run's facts, verdict, charts and tables, one run at a time.
 */
import type { PageData } from "../page/data.ts";
import type { PageRun } from "../page/run.ts";
import { type Cell, facts, fmtBytes, fmtMs, fmtNum, fmtPct, h, section, sortableTable } from "./dom.ts";
import { formatExponent, isHuge } from "../../../results/text_format.ts";
import { destroyCharts } from "./charts.ts";
import { distributionCharts, timelineCharts } from "./run_charts.ts";
import { experimentTables } from "./experiment.ts";
import { runProfiles } from "./profiles.ts";
import { endpointSection } from "./endpoints.ts";

/** The "Runs" section: a picker and the chosen run's details below it. */
export function renderRunSection(data: PageData): { el: HTMLElement; pick: (name: string) => void } {
  const sec = section("runs", "Run details");
  const select = h("select", { id: "run-picker", "aria-label": "run" }) as HTMLSelectElement;
  data.runs.forEach((r) => select.appendChild(h("option", { value: r.name }, r.name)));
  const body = h("div", { id: "run-body" });
  sec.appendChild(h("label", { class: "picker" }, "Run ", select));
  sec.appendChild(body);
  const pick = (name: string) => {
    select.value = name;
    const run = data.runs.find((r) => r.name === name);
    destroyCharts(body);
    body.replaceChildren();
    if (run) showRun(run, body, data.profiles?.cost ?? "");
  };
  select.addEventListener("change", () => pick(select.value));
  if (data.runs.length) pick(data.runs[0].name);
  return { el: sec, pick };
}

/** The config as indented JSON with huge numbers in exponent form, like every number on the page. */
export function configJson(config: unknown): string {
  const huge: string[] = [];
  const json = JSON.stringify(
    config,
    (_key, v) => typeof v === "number" && isHuge(v) ? `\u0000${huge.push(formatExponent(v)) - 1}` : v,
    2,
  );
  if (json === undefined) return ""; // a file without a config
  return json.replace(/"\\u0000(\d+)"/g, (mark, i) => huge[Number(i)] ?? mark);
}

/** Builds everything about one run into `body`; `profileCost` states what profiling costs. */
export function showRun(run: PageRun, body: HTMLElement, profileCost = ""): void {
  const timeline = h("div", { class: "grid2" });
  const dist = h("div", { class: "grid2" });
  const parts = [
    h("h3", { class: "run-name" }, run.name),
    runFacts(run),
    generatorSection(run),
    h("details", null, h("summary", null, "Attack configuration"), h("pre", null, configJson(run.config))),
    timeline,
    dist,
    outcomeTables(run),
    endpointSection(run),
    experimentTables(run),
    runProfiles(run, profileCost),
    h(
      "div",
      { class: "grid2 tools" },
      h("div", null, h("h3", null, "oha-style summary"), h("pre", { class: "oha" }, run.ohaText)),
      h("div", null, h("h3", null, "autocannon-style tables"), autocannonTables(run)),
    ),
  ];
  for (const el of parts) if (el) body.appendChild(el);
  timelineCharts(run, timeline);
  distributionCharts(run, dist);
}

/** gRPC server streams: the first message's latency beside the whole stream's; none without streams. */
export function streamFacts(run: PageRun): Array<[string, string]> {
  const first = run.firstMessage;
  if (!first) return [];
  const at = (l: { p50: number; p99: number }) => `p50 ${fmtMs(l.p50)}, p99 ${fmtMs(l.p99)}`;
  return [[
    "streams",
    `${fmtNum(first.streams)} streamed answers: first message ${at(first.latencyMs)}` +
    `${first.warmupIncluded ? " (warm-up included)" : ""}; whole stream ${at(run.latencyMs)}`,
  ]];
}

/** The run's facts atop its details: URL, model, what was measured, requests, errors, connections. */
export function runFacts(run: PageRun): HTMLElement {
  const errorsTotal = Object.values(run.errors).reduce((a: number, b) => a + (b ?? 0), 0);
  const workers = `${fmtNum(run.workers, 0)} worker(s)`;
  return facts([
    ["URL", run.url],
    ["model", run.model + (run.targetRps ? ` at ${fmtNum(run.targetRps)} req/s requested` : "")],
    ["measured", `${fmtNum(run.durationSec, 2)} s after ${fmtNum(run.warmupSec, 2)} s warm-up, ${workers}`],
    [
      "requests",
      `${fmtNum(run.requests)} (${fmtNum(run.rps)} req/s), success ${fmtPct(run.successRate * 100)}` +
      run.successQualifier,
    ],
    ...streamFacts(run),
    [
      "errors / late / dropped",
      `${fmtNum(errorsTotal)} / ${fmtNum(run.lateSends)} / ${fmtNum(run.droppedSends)}`,
    ],
    [
      "connections",
      `${fmtNum(run.connects)} opened, ${fmtNum(run.reconnects)} reopened` +
      (run.connectTimeMs ? `, connect p99 ${fmtMs(run.connectTimeMs.p99)}` : "") +
      (run.tlsMs ? `, TLS handshake p99 ${fmtMs(run.tlsMs.p99)}` : "") +
      (run.tls?.insecure ? " (certificates not verified: --insecure)" : "") +
      (run.tls?.handshakes != null
        ? `, ${fmtNum(run.tls.resumed ?? 0)} of ${fmtNum(run.tls.handshakes)} resumed`
        : "") +
      (run.tls?.resumeNote ? ` (${run.tls.resumeNote})` : ""),
    ],
    ...run.wsFacts,
    ["stabilized", run.stabilization],
  ]);
}

/** Who limited the run and the facts behind it, marked as a warning when the run was bound. */
export function generatorSection(run: PageRun): HTMLElement | null {
  const v = run.generator;
  if (!v) return null;
  const bound = v.kind === "generator-bound" || v.kind === "server-bound";
  return h(
    "div",
    { class: "generator", id: "run-generator" },
    h("h3", null, "Generator"),
    h("p", { class: bound ? "warn verdict" : "verdict" }, v.sentence[0].toUpperCase() + v.sentence.slice(1)),
    facts(v.facts),
  );
}

/** Status codes and error kinds (with their distinct messages) of one run. */
export function outcomeTables(run: PageRun): HTMLElement {
  const total = Object.values(run.statusCodes).reduce((a, b) => a + b, 0);
  const codes: Cell[][] = Object.entries(run.statusCodes).map(([code, n]) => [
    { text: code, cls: /^[23]/.test(code) ? "" : "bad" },
    { text: fmtNum(n), sort: n },
    { text: fmtPct(total ? (n / total) * 100 : NaN), sort: n },
  ]);
  const errs: Cell[][] = [];
  for (const [kind, n] of Object.entries(run.errors)) {
    const msgs = Object.entries(run.errorMessages[kind] ?? {});
    if (!msgs.length) errs.push([{ text: kind }, { text: "" }, { text: fmtNum(n ?? 0), sort: n ?? 0 }]);
    for (const [msg, m] of msgs) errs.push([{ text: kind }, { text: msg }, { text: fmtNum(m), sort: m }]);
  }
  const statuses = [{ label: "status" }, { label: "responses", num: true }, { label: "share", num: true }];
  const errors = errs.length
    ? sortableTable([{ label: "kind" }, { label: "message" }, { label: "count", num: true }], errs)
    : h("p", { class: "note" }, "No transport errors.");
  return h(
    "div",
    { class: "grid2" },
    h("div", null, h("h3", null, "Status codes"), sortableTable(statuses, codes)),
    h("div", null, h("h3", null, "Errors"), errors),
  );
}

/** autocannon's latency table and its req/s and bytes/s tables, as the terminal prints them. */
export function autocannonTables(run: PageRun): HTMLElement {
  const table = ([head, ...rows]: string[][]) => {
    const thead = h("thead", null, h("tr", null, ...head.map((c) => h("th", { scope: "col" }, c))));
    const trs = rows.map((r) => h("tr", null, ...r.map((c, i) => h("td", { class: i ? "num" : "" }, c))));
    const tbody = h("tbody", null, ...trs);
    return h("div", { class: "table-wrap" }, h("table", { class: "data compact" }, thead, tbody));
  };
  const non2xx = Object.entries(run.statusCodes).reduce((a, [c, n]) => /^2/.test(c) ? a : a + n, 0);
  const note = `Req/Bytes counts sampled once per second; # of samples: ${run.autocannon.samples}. ` +
    `${fmtNum(run.requests - non2xx)} 2xx responses, ${fmtNum(non2xx)} non 2xx responses. ` +
    `${fmtNum(run.requests)} requests in ${fmtNum(run.durationSec, 2)}s, ${fmtBytes(run.bytesRead)} read.`;
  const { latency, throughput } = run.autocannon;
  return h("div", null, table(latency), table(throughput), h("p", { class: "note" }, note));
}
