/**
 * @module
 * A flow's WebSocket step as config and file hold it; ordering rules refuse a bad flow before any load.
 */
import { z } from "zod";
import { checkFields, checkRules } from "./session_schema.ts";
import { endpointNameProblem, headerRules, ruleOf } from "./request_rules.ts";
import { customIssue, issueList, type PathIssue } from "../validation/mod.ts";

const { status: _status, header: _header, ...matchFields } = checkFields;

/** Which message a `send` or `wait` step waits for; `{}`: the next message. */
const wsMatchSchema = z.strictObject(matchFields).superRefine((m, ctx) => {
  const kinds = [m.json, m.contains, m.regexp].filter((k) => k !== undefined);
  if (kinds.length === 0 && m.equals === undefined && m.exists === undefined) return;
  checkRules(m, ctx, "a match takes one of json (with equals or exists), contains or regexp, or nothing");
});

const SUBPROTOCOL = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** The most a ws step waits for its message, ms (10 minutes). */
const MAX_WS_WAIT_MS = 600_000;

/** Whether an endpoint may send `code` in a Close frame (RFC 6455 7.4): reserved codes draw a 1002. */
function sendableCloseCode(code: number): boolean {
  return (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999);
}

/** The fields of a ws step's action; the file's form says `timeout` (a duration) for `timeoutMs`. */
export const wsActionFields = {
  /** Opens the session's WebSocket at this path of the target (placeholders filled). */
  connect: z.string().refine(
    (p) => p.startsWith("/") || p.startsWith("{{"),
    "connect takes a path on the target starting with '/', e.g. /ws/echo?token={{ token }}",
  ).optional(),
  /** Handshake header fields of a connect (values take placeholders). */
  headers: z.record(z.string(), z.string()).superRefine((h, ctx) =>
    headerRules(Object.entries(h), ctx, (name) => [name])
  ).optional(),
  /** Subprotocols a connect offers (Sec-WebSocket-Protocol). */
  protocols: z.array(z.string().regex(SUBPROTOCOL, "a subprotocol is a token")).optional(),
  /** A connect offers permessage-deflate (as the load's `ws.deflate`). */
  deflate: z.boolean().optional(),
  /** A text message sent (placeholders filled; an object in a file is sent as JSON). */
  send: z.string().optional(),
  /** The message a send waits for as its answer (none given: it waits only for captures or checks). */
  match: wsMatchSchema.optional(),
  /** Waits for a message that matches (`{}`: the next one) without sending. */
  wait: wsMatchSchema.optional(),
  /** Closes the session's WebSocket with this code (1000: normal). */
  close: z.number().int().refine(sendableCloseCode, {
    error: (i) =>
      `${i.input} is not a code an endpoint may send: use 1000 (normal), 1001-1003, 1007-1014 or 3000-4999`,
  }).optional(),
  /** The endpoint a send's answer or a wait is counted under (default `WS SEND path` / `WS WAIT path`). */
  name: z.string().trim().min(1, "a name must not be empty").superRefine(ruleOf(endpointNameProblem))
    .optional(),
};

const ACTIONS = ["connect", "send", "wait", "close"] as const;
const FIELD_OF: Record<string, readonly string[]> = {
  headers: ["connect"],
  protocols: ["connect"],
  deflate: ["connect"],
  match: ["send"],
  timeoutMs: ["send", "wait"],
  timeout: ["send", "wait"],
  name: ["send", "wait"],
};

/** The one action of a ws step, or the issues that say it has none or several, or a field of another. */
export function wsActionRules(action: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const given = ACTIONS.filter((a) => action[a] !== undefined);
  if (given.length !== 1) {
    customIssue(
      ctx,
      [],
      given.length === 0
        ? "a ws step needs one of connect, send, wait or close"
        : `a ws step does one thing; found ${given.join(" and ")} (use one step each)`,
    );
    return;
  }
  for (const [field, owners] of Object.entries(FIELD_OF)) {
    if (action[field] !== undefined && !owners.includes(given[0])) {
      customIssue(ctx, [field], `${field} goes with ${owners.join(" or ")}, not ${given[0]}`);
    }
  }
}

export const wsActionSchema = z.strictObject({
  ...wsActionFields,
  /** How long a send's answer or a wait may take (default: the run's timeout). */
  timeoutMs: z.number().positive("a ws step's timeout must be above 0, e.g. 5s")
    .max(MAX_WS_WAIT_MS, "a ws step's timeout must be at most 10m (the run's own end cuts a longer wait)")
    .refine(Number.isInteger, "a ws step waits whole milliseconds: use e.g. 1ms").optional(),
}).superRefine(wsActionRules);
export type WsAction = z.infer<typeof wsActionSchema>;

/** A step as far as the ordering rules read it. */
interface StepLike {
  ws?: { connect?: unknown; send?: unknown; wait?: unknown; close?: unknown };
  capture?: ReadonlyArray<{ header?: unknown }>;
  expect?: ReadonlyArray<{ status?: unknown }>;
  maxKeptBytes?: unknown;
}

/** What a flow's ws steps may not do, each with its path under the flow's `steps`. */
export function wsStepIssues(steps: ReadonlyArray<StepLike | object>): PathIssue[] {
  const issues: PathIssue[] = [];
  // Whether a WebSocket is open before the step; null after a step that names no action (a mistyped
  // connect, say), when it cannot be told: the steps after it are not held to it.
  let open: boolean | null = false;
  steps.forEach((any, k) => {
    const step = any as StepLike;
    const ws = step.ws;
    if (typeof ws !== "object" || ws === null) return;
    // A step that names no action is the schema's to refuse: no ordering rule is checked on it.
    const action = ACTIONS.find((a) => ws[a] !== undefined);
    if (action === undefined) {
      open = null;
      return;
    }
    if (action === "connect") {
      if (open === true) {
        issues.push({ path: [k, "ws", "connect"], message: "a WebSocket is open already: close it first" });
      }
      open = true;
    } else if (open === false) {
      issues.push({
        path: [k, "ws", action],
        message: `${action} needs an open WebSocket: add a step - ws: { connect: /path } before it`,
      });
    }
    if (action === "close") open = false;
    issues.push(...messageIssues(step, k, action));
  });
  return issues;
}

/** What a ws step's captures, checks and `maxKeptBytes` may not ask of a message (or of no message). */
function messageIssues(step: StepLike, k: number, action: string): PathIssue[] {
  const [issues, add] = issueList();
  const reads = action === "send" || action === "wait";
  if (!reads && (step.capture !== undefined || step.expect !== undefined)) {
    add(
      [k, step.capture !== undefined ? "capture" : "expect"],
      `a ${action} step receives no message: capture and expect go with send or wait`,
    );
  }
  step.capture?.forEach((c, i) => {
    if (c.header !== undefined) {
      add([k, "capture", i, "header"], "a message has no headers: capture json or regexp");
    }
  });
  step.expect?.forEach((c, i) => {
    if (c.status !== undefined) {
      add([k, "expect", i, "status"], "a message has no status: check json or contains");
    }
  });
  if (step.maxKeptBytes !== undefined) {
    add([k, "maxKeptBytes"], "a ws step keeps its message whole up to the message cap: drop maxKeptBytes");
  }
  return issues;
}
