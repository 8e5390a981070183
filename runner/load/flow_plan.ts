/**
 * @module
 * Flows ready for the session loop: every request step is encoded to wire bytes once per worker (as
 * the request mix is) and think steps keep their pause. Flows are picked by weight with the mix's
 * `PickCycle` (smooth weighted round-robin), so every weight is honoured exactly over one cycle. Only
 * request steps are numbered: results list one entry per request step, labelled by its `label` or
 * `METHOD path`.
 */
import type { FlowSpec } from "../config.ts";
import { type EncodedRequest, encodeRequest, hostHeaderOf, resolvePath } from "../http/request.ts";

/** One step of an encoded flow: a request (with its index among the flow's request steps) or a pause. */
export type EncodedStep =
  | { kind: "request"; request: EncodedRequest; stepIndex: number }
  | { kind: "think"; thinkMs: number };

/** A flow whose request bytes are ready to write. */
export interface EncodedFlow {
  name: string;
  steps: EncodedStep[];
  /** Labels of the request steps, in order (what results name them). */
  labels: string[];
  /** Think time before the first request: the first request's intended time is arrival + this. */
  leadingThinkMs: number;
}

/** Encodes each flow's requests once; paths are joined to the target URL as the mix's are. */
export function encodeFlows(url: URL, flows: readonly FlowSpec[]): EncodedFlow[] {
  const host = hostHeaderOf(url);
  return flows.map((flow) => {
    const steps: EncodedStep[] = [];
    const labels: string[] = [];
    let leadingThinkMs = 0;
    for (const step of flow.steps) {
      if ("thinkMs" in step) {
        if (labels.length === 0) leadingThinkMs += step.thinkMs;
        steps.push({ kind: "think", thinkMs: step.thinkMs });
        continue;
      }
      const spec = step.request;
      const request = encodeRequest(host, { ...spec, path: resolvePath(url, spec.path) });
      steps.push({ kind: "request", request, stepIndex: labels.length });
      labels.push(step.label ?? `${spec.method} ${spec.path}`);
    }
    return { name: flow.name, steps, labels, leadingThinkMs };
  });
}
