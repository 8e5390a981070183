/// <reference lib="dom" />
/**
 * @module
 * The live dashboard's steering controls (shown when the URL carries the run's token): each click
 * POSTs one change to `/control` and shows the answer; `steer` events keep every page in step.
 */
import { h } from "./dom.ts";
import { fixedOrDash } from "../../../results/text_format.ts";
import { steerChangeText } from "./run_charts.ts";
import { modelFactsOf } from "../../../results/load_models.ts";

/** What `/control` says (runner/steering.ts `SteerState`). */
export interface LiveSteerState {
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
