/**
 * @module
 * The live dashboard (`loadlabLive`): report.html fed by a Server-Sent Events stream under a live panel, with
 * steering controls when the URL carries the run's token (a click POSTs to `/control`; `steer` events sync).
 */
import type { PageData } from "../page/data.ts";
import type { AttackProgress } from "../../../results/mod.ts";
import { fmtMs, fmtNum, h } from "./dom.ts";
import { applyChartTheme, color, type Marks, rightAxisScale, timeChart, timeLineOptions } from "./charts.ts";
import { renderApp, watchThemeAndPrint } from "./main.ts";
import { steerChangeText, steeringMarks } from "./run_charts.ts";
import { fixedOrDash, formatEta } from "../../../results/text_format.ts";
import { modelFactsOf } from "../../../results/load_models.ts";

declare const Chart: any;

/** A progress sample of the stream: the engine's numbers plus the targets' latest telemetry. */
export interface LiveProgress extends AttackProgress {
  targets?: Array<{ name: string; cpuPercent: number | null; rssMiB: number | null }>;
}

/** The panel's two charts, and the steering changes the timeline marks (refilled in place). */
type LiveCharts = ReturnType<typeof renderLivePanel>;

interface LiveRunStart {
  index: number;
  total: number;
  name: string;
  /** Time left for this and the remaining runs, as of when the event was sent. */
  etaMs: number;
}

/** The panel with its status line, numbers, the timeline and the (hidden until fed) CPU chart. */
export function renderLivePanel(wrap: HTMLElement) {
  const panel = h(
    "section",
    { id: "live", class: "card", "data-run": "0", "data-total": "0", "data-points": "0" },
    h("h2", null, "Live"),
    h("p", { id: "live-status", class: "lead" }, "waiting for the first run…"),
    h("p", { id: "live-numbers", class: "note" }),
  );
  wrap.appendChild(panel);
  const dataset = (label: string, i: number, axis: string) => ({
    label,
    data: [] as Array<{ x: number; y: number }>,
    borderColor: color(i),
    backgroundColor: color(i, 0.2),
    yAxisID: axis,
  });
  const marks: Marks = [];
  const options = timeLineOptions("per second");
  options.scales.y1 = rightAxisScale("p99 ms");
  const datasets = [dataset("req/s", 0, "y"), dataset("p99 ms", 1, "y1"), dataset("errors/s", 2, "y")];
  const title = "Run under way: req/s, p99 and errors/s over seconds since its start";
  const timeline = timeChart(panel, title, datasets, options, marks, "line", "wide");
  const cpu = timeChart(panel, "Target processes: CPU % (100 = one core)", [], timeLineOptions("CPU %"), []);
  cpu.canvas.closest("figure").hidden = true;
  return { timeline, cpu, marks };
}

/** Adds the targets' CPU of one sample to the CPU chart (a line per process, made on first sight). */
export function addTelemetryPoint(cpu: any, p: LiveProgress): void {
  if (!p.targets?.length) return;
  cpu.canvas.closest("figure").hidden = false;
  for (const t of p.targets) {
    let d = cpu.data.datasets.find((x: any) => x.label === t.name);
    if (!d) {
      const i = cpu.data.datasets.length + 3;
      d = { label: t.name, data: [], borderColor: color(i), backgroundColor: color(i, 0.2) };
      cpu.data.datasets.push(d);
    }
    if (t.cpuPercent !== null) d.data.push({ x: p.elapsedSec, y: t.cpuPercent });
  }
}

/** Adds one progress sample to the chart and the numbers; `prev` gives errors/s. */
export function addLivePoint(charts: LiveCharts, p: LiveProgress, prev: LiveProgress | null): void {
  const [rps, p99, errors] = charts.timeline.data.datasets;
  addTelemetryPoint(charts.cpu, p);
  const dt = prev ? p.elapsedSec - prev.elapsedSec : 0;
  rps.data.push({ x: p.elapsedSec, y: p.rps });
  p99.data.push({ x: p.elapsedSec, y: p.p99Ms });
  errors.data.push({ x: p.elapsedSec, y: prev && dt > 0 ? Math.max(0, p.errors - prev.errors) / dt : 0 });
  const panel = document.getElementById("live")!;
  panel.dataset.points = String(rps.data.length);
  const total = p.totalSec === null ? "" : ` of ${fmtNum(p.totalSec)} s`;
  document.getElementById("live-numbers")!.textContent = `${fmtNum(p.elapsedSec)} s${total} · ` +
    `${fmtNum(p.requests, 0)} requests · ${fmtNum(p.rps)} req/s · p99 ${fmtMs(p.p99Ms)} · ` +
    `${fmtNum(p.errors, 0)} errors` +
    (p.targets ?? []).map((t) => ` · ${t.name}: ${fmtNum(t.cpuPercent)}% CPU, ${fmtNum(t.rssMiB)} MiB`).join(
      "",
    );
}

/** Starts a run on the panel: counter, name, ETA, an empty timeline. */
export function startLiveRun(charts: LiveCharts, run: LiveRunStart): void {
  const panel = document.getElementById("live")!;
  panel.dataset.run = String(run.index + 1);
  panel.dataset.total = String(run.total);
  panel.dataset.points = "0";
  document.getElementById("live-status")!.textContent = `run ${run.index + 1} of ${run.total}: ${run.name}` +
    ` · ETA ${formatEta(run.etaMs)}`;
  for (const d of charts.timeline.data.datasets) d.data = [];
  charts.marks.length = 0;
  charts.cpu.data.datasets = [];
  charts.cpu.canvas.closest("figure").hidden = true;
  for (const c of [charts.timeline, charts.cpu]) c.update("none");
}

/** The dashboard page: draws the embedded data, then follows the stream until `end`. */
export function loadlabLive(): void {
  const initial: PageData = JSON.parse(document.getElementById("loadlab-data")!.textContent ?? "{}");
  applyChartTheme();
  const app = document.getElementById("app")!;
  if (initial.runs.length) renderApp(initial);
  watchThemeAndPrint();
  const wrap = h("main", { id: "live-wrap" });
  app.parentNode!.insertBefore(wrap, app);
  const charts = renderLivePanel(wrap);
  // With the run's token in the URL the page steers too (`renderSteerControls`); without it, it only watches.
  const token = steerToken();
  const controls = token ? renderSteerControls(document.getElementById("live")!, token) : null;
  const showSteer = controls && ((state: LiveSteerState) => {
    controls(state);
    charts.marks.splice(0, charts.marks.length, ...steeringMarks(state.changes, state.warmupSec));
    document.getElementById("live")!.dataset.marks = String(charts.marks.length);
    redraw();
  });
  const redraw = () => [charts.timeline, charts.cpu].forEach((c) => c.update("none"));
  let prev: LiveProgress | null = null;
  const source = new EventSource("events");
  const on = (event: string, fn: (data: any) => void) =>
    source.addEventListener(event, (e) => fn(JSON.parse((e as MessageEvent).data)));
  on("snapshot", (data: PageData) => renderApp(data));
  on("run-start", (run: LiveRunStart) => {
    prev = null;
    startLiveRun(charts, run);
  });
  // The steering's state arrives with the stream (first frames, each load's start and end, each change).
  on("steer", (event: { state: LiveSteerState }) => showSteer?.(event.state));
  const addPoints = (points: LiveProgress[]) => {
    for (const p of points) {
      addLivePoint(charts, p, prev);
      prev = p;
    }
    redraw();
  };
  on("backlog", addPoints);
  on("progress", (p: LiveProgress) => addPoints([p]));
  on("end", () => {
    source.close();
    charts.timeline.destroy();
    charts.cpu.destroy();
    wrap.remove();
    document.documentElement.dataset.live = "ended";
  });
}

/** What `/control` says (runner/steering.ts `SteerState`). */
interface LiveSteerState {
  running: boolean;
  run: string | null;
  model: string | null;
  paused: boolean;
  ratePerSec: number | null;
  connections: number | null;
  warmupSec: number;
  changes: Array<{ atSec: number; action: string; ratePerSec?: number; connections?: number; by?: string }>;
}

/** The run's token from the page's URL (`?token=...`), or null: the page then only watches. */
export function steerToken(): string | null {
  return new URLSearchParams(location.search).get("token");
}

/** Builds the controls into `panel`; returns a function that shows a state (from an answer or an event). */
export function renderSteerControls(panel: HTMLElement, token: string): (state: LiveSteerState) => void {
  const rate = h("input", { id: "steer-rate", type: "number", min: "0", step: "any", placeholder: "req/s" });
  const conns = h("input", { id: "steer-connections", type: "number", min: "1", step: "1" });
  const status = h("p", { id: "steer-status", class: "note" }, "steering: waiting for the run to start");
  const button = (id: string, text: string) => h("button", { id, type: "button" }, text);
  const setConns = button("steer-connections-set", "Set connections");
  const box = h(
    "div",
    { id: "steer", "data-paused": "false", "data-model": "", "data-changes": "0" },
    button("steer-pause", "Pause"),
    h("span", { id: "steer-rate-box" }, " rate ", rate, button("steer-rate-set", "Set rate")),
    h("span", { id: "steer-connections-box" }, " connections ", conns, setConns),
    " ",
    button("steer-end-phase", "End phase"),
    " ",
    button("steer-stop", "Stop"),
    status,
  );
  panel.appendChild(box);
  const show = (state: LiveSteerState) => showSteerState(box, state);
  const send = (change: Record<string, unknown>) => postSteerChange(token, change, show, status);
  const click = (id: string, fn: () => void) => document.getElementById(id)!.addEventListener("click", fn);
  click("steer-pause", () => send({ action: box.dataset.paused === "true" ? "resume" : "pause" }));
  click(
    "steer-rate-set",
    () => send({ action: "rate", ratePerSec: Number((rate as HTMLInputElement).value) }),
  );
  click(
    "steer-connections-set",
    () => send({ action: "connections", connections: Number((conns as HTMLInputElement).value) }),
  );
  click("steer-end-phase", () => send({ action: "end-phase" }));
  click("steer-stop", () => send({ action: "stop" }));
  return show;
}

/** POSTs one change; shows the new state, or the endpoint's reason for refusing it. */
export function postSteerChange(
  token: string,
  change: Record<string, unknown>,
  show: (state: LiveSteerState) => void,
  status: HTMLElement,
): void {
  fetch("control", {
    method: "POST",
    headers: { "content-type": "application/json", "x-loadlab-token": token },
    body: JSON.stringify(change),
  }).then(async (res) => {
    const body = await res.json();
    if (res.ok) show(body.state);
    else status.textContent = `refused (${res.status}): ${body.error}`;
  }, (err) => status.textContent = `not sent: ${err}`);
}

/** The state on the controls: the pause button's word, which value applies to this model, the last change. */
export function showSteerState(box: HTMLElement, state: LiveSteerState): void {
  box.dataset.paused = String(state.paused);
  box.dataset.model = state.model ?? "";
  box.dataset.changes = String(state.changes.length);
  document.getElementById("steer-pause")!.textContent = state.paused ? "Resume" : "Pause";
  const steers = modelFactsOf(state.model)?.steers ?? [];
  document.getElementById("steer-rate-box")!.hidden = !steers.includes("rate");
  document.getElementById("steer-connections-box")!.hidden = !steers.includes("connections");
  const last = state.changes.at(-1);
  const what = last === undefined
    ? "no change yet"
    : `last change: ${steerChangeText(last)} at ${fixedOrDash(last.atSec, 1)} s`;
  document.getElementById("steer-status")!.textContent = state.running
    ? `steering ${state.run} (${state.model}): ${state.paused ? "paused" : "running"}; ${what}`
    : "steering: no load is running now";
}
