/**
 * @module
 * An Artillery scenario with a `config.processor` run as a session script: its CommonJS hooks loaded
 * unchanged in the session isolate and called as Artillery's engine_http calls them, over the steps the
 * import converted (scenarios/artillery/), with the virtual user's `context.vars` read by templates.
 */
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { basename, join } from "node:path";
import type { Response, Session } from "../session.ts";
import { parseJsonPath } from "../../json_path.ts";
import { compileCondition } from "../../step_condition.ts";
import { REDIRECT_STATUSES } from "../../http/kept_response.ts";
import { durationMsOf } from "../../../validation/duration.ts";
import { addValue, flushMetricsSoon, type MetricPart } from "../k6/metrics.ts";
import { cachePathOf, writeWhole } from "../cache_dir.ts";
import { abortTest } from "../k6/test_abort.ts";

type Step = Record<string, any>;
type Vars = Record<string, unknown>;
type Hook = (...args: any[]) => unknown;
type Hooks = Record<string, Hook | undefined>;

/** What the import hands the runtime: the processor's path and the converted scenarios. */
export interface HooksPlan {
  processor?: string;
  origin: string;
  /** config.variables: a value, or `{ list }` of which each virtual user draws one. */
  variables: Record<string, unknown>;
  /** Each scenario's steps and its hooks (`beforeScenario`, `beforeRequest`, ...) as lists of names. */
  flows: Array<{ weight: number; steps: Step[]; hooks: Record<string, string[] | undefined> }>;
  /** A failed expectation ends the virtual user (the expect plugin's `reportFailuresAsErrors`). */
  ends?: boolean;
  /** The script's `before` and `after` flows: run once around the load, their vars shared with every user. */
  once?: { before?: Step[]; after?: Step[] };
}

/**
 * Calls hook `fn` with `args` then Artillery's `next`, or awaits it when async (a hook's value passed on
 * fails); an error fails the virtual user under its message, as Artillery counts it (`errors.<message>`).
 */
async function call(fn: Hook | undefined, args: unknown[], step = false): Promise<void> {
  if (typeof fn !== "function") return;
  const err =
    await (fn.constructor.name !== "Function"
      ? Promise.resolve(fn(...args)).then((v) => (step ? undefined : v))
      : new Promise((resolve) => fn(...args, resolve))).catch((thrown) => thrown ?? "error");
  if (err) throw new Error(err instanceof Error ? err.message : String(err));
}

/** A plain function's throw in `afterResponse` escapes Artillery's callbacks: its worker dies, exit 11. */
const dies = (fn: Hook | undefined, name: string): Hook | undefined =>
  fn?.constructor.name !== "Function" ? fn : (...args) => {
    try {
      return fn(...args);
    } catch (err) {
      abortTest(`worker error in afterResponse ${name}: ${err}`);
    }
  };

const TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;
const RANDOM = /^\$random(Number|String)\((\d*)\s*,?\s*(\d*)\)$/;

/** One `{{ name }}` as Artillery fills it: a variable, `$randomNumber(a, b)`, `$randomString(n)`. */
function value(name: string, vars: Vars): unknown {
  const r = RANDOM.exec(name);
  if (r?.[1] === "Number") {
    return Number(r[2]) + Math.floor(Math.random() * (Number(r[3]) - Number(r[2]) + 1));
  }
  if (r) {
    return Array.from({ length: Number(r[2] || 10) }, () => (Math.random() * 36 | 0).toString(36)).join("");
  }
  // The import writes Artillery's per-user `$uuid` as `$uuid()`: here the user's own is at hand.
  if (name === "$uuid()") return vars.$uuid;
  // A path as lodash's get reads it: `a.b[0]`.
  return name.match(/[^.[\]'"]+/g)?.reduce((v: any, k) => v?.[k], vars);
}

/**
 * Templates filled in every string of `v`; a template that is the whole string keeps the value's type, one
 * among text gives an object as JSON and a missing name as `undefined`, as Artillery's do.
 */
function fill(v: unknown, vars: Vars): any {
  if (typeof v === "string") {
    const whole = /^\{\{\s*([^}]*?)\s*\}\}$/.exec(v);
    const text = (x: unknown) => typeof x === "object" && x !== null ? JSON.stringify(x) : String(x);
    return whole ? value(whole[1], vars) : v.replace(TEMPLATE, (_, n) => text(value(n, vars)));
  }
  if (Array.isArray(v)) return v.map((x) => fill(x, vars));
  if (v === null || typeof v !== "object") return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fill(x, vars)]));
}

type Load = typeof import("cheerio/slim").load;

/** What one capture or check reads of the response (`load` parses HTML): undefined when it finds nothing. */
function read(r: Response, c: Step, load?: Load): unknown {
  if (c.header !== undefined) return r.headers.get(c.header) ?? undefined;
  if (c.selector !== undefined) {
    // As Artillery's cheerio capture: the `index`th match (`random`: any), its `attr` (else its attributes).
    // `last` calls a count as a function there: its worker dies, as on a plain afterResponse's throw.
    if (c.index === "last") abortTest("worker error in a selector capture: index last");
    const found = load!(r.text())(c.selector);
    const i = c.index === "random" ? Math.ceil(Math.random() * found.length - 1) : Number(c.index ?? 0);
    return found.slice(i, i + 1).attr(c.attr);
  }
  if (c.regexp !== undefined) return new RegExp(c.regexp).exec(r.text())?.[c.group ?? 0];
  try {
    return parseJsonPath(c.json).reduce((v: any, k) => v?.[k], JSON.parse(r.text()));
  } catch {
    return undefined;
  }
}

function passes(r: Response, e: Step): boolean {
  if (e.status !== undefined) return [e.status].flat().includes(r.status);
  const found = read(r, e);
  if (e.exists !== undefined) return (found !== undefined) === e.exists;
  if (e.equals !== undefined) return String(found) === String(e.equals);
  return e.header !== undefined ? new RegExp(e.regexp).test(String(found ?? "")) : found !== undefined;
}

/** What Artillery's runner makes of `events.emit(kind, name, value)`: a counter, or a summary of values. */
const EMITTED: Record<string, MetricPart["kind"]> = {
  counter: "counter",
  histogram: "trend",
  summary: "trend",
};

/** The methods a request step is written under (`- get: {url: /}`). */
export const METHODS = ["get", "post", "put", "patch", "delete", "head"];
/** The redirects got (Artillery's client) follows by default: a step's `followRedirect: false` gives 0. */
export const GOT_MAX_REDIRECTS = 10;

/** The default export of a processor scenario's session module. */
export function artilleryHooks(plan: HooksPlan, esm?: Hooks) {
  const fns: Hooks = esm ?? (plan.processor ? createRequire(plan.processor)(plan.processor) : {});
  const total = plan.flows.reduce((n, f) => n + f.weight, 0);
  // cheerio, loaded only for a script that captures by selector.
  const html = JSON.stringify(plan.flows).includes('"selector":') ? import("cheerio/slim") : undefined;
  const conditions = new Map<string, ((vars: Vars) => boolean) | null>();
  const condition = (text: string) => {
    if (!conditions.has(text)) conditions.set(text, compileCondition(text, (n) => (vars: Vars) => vars[n]));
    return conditions.get(text);
  };
  const events = {
    emit(kind: string, name: unknown, value: unknown) {
      // A rate's events are timed: Artillery's rate is their count over the span from the first to the last.
      const rate = kind === "rate", as = rate ? "trend" : EMITTED[kind];
      if (as) addValue(String(name), as, rate, rate ? Date.now() : Number(value));
    },
    on() {},
    removeListener() {},
  };
  /** `vars` with config.variables: a value, or one drawn of a list. */
  const draw = (vars: Vars) => {
    for (const [k, v] of Object.entries(plan.variables)) {
      const list = (v as { list?: unknown[] })?.list;
      vars[k] = list ? list[Math.floor(Math.random() * list.length)] : v;
    }
    return vars;
  };

  async function request(s: Session, step: Step, method: string, ctx: { vars: Vars }, hooks: Step) {
    const spec = step[method];
    if (step.ifTrue !== undefined) {
      const fn = fns[step.ifTrue], cond = fn ? null : condition(step.ifTrue);
      // A condition that throws sends the request, as Artillery's does.
      let holds: unknown = true;
      try {
        holds = fn ? fn(ctx.vars) : cond ? cond(ctx.vars) : true;
      } catch { /* sent */ }
      if (!holds) return;
    }
    // A hook sees the request as written (templates unfilled, no default headers), as Artillery's do.
    const to = /^https?:/.test(spec.path) ? spec.path : plan.origin + spec.path; // another origin as written
    const req: Step = { ...spec, url: to, method: method.toUpperCase(), qs: spec.query };
    req.headers = step.ownHeaders ? { ...spec.headers } : undefined;
    for (const name of [...hooks.beforeRequest ?? [], ...step.beforeRequest ?? []]) {
      await call(fns[name], [req, ctx, events]);
    }
    // The step's own qs object is sent (a hook may change it in place; another object is not read).
    const qs = spec.query ? new URLSearchParams(fill(spec.query, ctx.vars)).toString() : "";
    const url = fill(req.url, ctx.vars) + (qs ? (req.url.includes("?") ? "&" : "?") + qs : "");
    const lower = (h?: Step) =>
      Object.entries(h ?? {}).map(([k, v]) => [k.toLowerCase(), String(fill(v, ctx.vars))]);
    const headers = Object.fromEntries([...lower(spec.headers), ...lower(req.headers)]);
    const text = req.body === undefined ? undefined : String(fill(req.body, ctx.vars));
    // A multipart body with a binary file part is a string of bytes, one character each.
    const bytes = text !== undefined && spec.bytes ? Uint8Array.from(text, (c) => c.charCodeAt(0)) : text;
    const body = req.json !== undefined
      ? { json: fill(req.json, ctx.vars) }
      : bytes === undefined
      ? {}
      : { body: bytes };
    let r = await s.request(req.method, url, { headers, ...body, name: spec.name });
    // Redirects as got follows them, each hop a request: a 303 GETs without the body; past the most: fails.
    for (let hops = 0, at = url; REDIRECT_STATUSES.includes(r.status) && r.headers.has("location"); hops++) {
      if (hops === (step.maxRedirects ?? GOT_MAX_REDIRECTS)) {
        if (hops === 0) break;
        throw new Error(`Redirected ${hops} times. Aborting.`);
      }
      at = new URL(r.headers.get("location")!, at).href;
      const get = r.status === 303 && !["GET", "HEAD"].includes(req.method);
      r = await s.request(get ? "GET" : req.method, at, { headers, ...get ? {} : body, name: spec.name });
    }
    if (r.status === 0) throw new Error(r.failure?.message ?? "no response");
    const missed = (step.expect ?? []).filter((e: Step) =>
      !s.check(passes(r, e), `${spec.name}: ${JSON.stringify(e)}`)
    );
    if (missed.length > 0 && plan.ends) throw new Error(`Failed expectations for request ${req.url}`);
    const load = (await html)?.load;
    const captured: Array<[Step, unknown]> = (step.capture ?? []).map((c: Step) => [c, read(r, c, load)]);
    // Artillery fails a capture finding nothing or "".
    const failed = captured.some(([c, v]) =>
      (v === undefined || v === "") && c.strict !== false ||
      c.equals !== undefined && String(v) !== String(c.equals)
    );
    if (!failed) { for (const [c, v] of captured) if (c.as !== "_match") ctx.vars[c.as] = v; }
    const after = [...hooks.afterResponse ?? [], ...step.afterResponse ?? []];
    if (after.length > 0) {
      const headersOf = new Proxy({}, { get: (_, k) => r.headers.get(String(k)) ?? undefined });
      const res = { statusCode: r.status, headers: headersOf, body: r.text() };
      for (const name of after) await call(dies(fns[name], name), [req, res, ctx, events]);
    }
    if (failed) throw new Error("Failed capture or match");
  }

  async function run(s: Session, steps: Step[], ctx: { vars: Vars }, hooks: Step): Promise<void> {
    for (const step of steps) {
      const method = METHODS.find((m) => m in step);
      if (method) await request(s, step, method, ctx, hooks);
      else if (step.think !== undefined) await s.sleep(durationMsOf(step.think) ?? 0);
      else if (step.function !== undefined) await call(fns[step.function], [ctx, events], true);
      else if (step.vars !== undefined) Object.assign(ctx.vars, step.vars);
      else if (step.loop !== undefined) {
        const index = step.loopValue ?? "$loopCount";
        ctx.vars[index] = 0;
        // A round always runs; the function then answers with the next round's number in the vars.
        for (let more = true; more;) {
          await run(s, step.loop, ctx, hooks);
          ctx.vars[index] = Number(ctx.vars[index]) + 1;
          more = await new Promise((resolve) => fns[step.whileTrue]!(ctx, resolve)) as boolean;
        }
      }
    }
  }

  // The once-flows' requests go by fetch, counted in no metric (Artillery's go to no report either).
  const sender = {
    check: (ok: boolean) => ok,
    sleep: (ms: number) => new Promise((r) => setTimeout(r, ms)),
    async request(method: string, url: string, o: Step) {
      const json: Record<string, string> = o.json === undefined ? {} : { "content-type": "application/json" };
      const body = o.json === undefined ? o.body : JSON.stringify(o.json);
      const res = await fetch(url, { method, headers: { ...json, ...o.headers }, body, redirect: "manual" });
      const text = await res.text();
      return { status: res.status, headers: res.headers, text: () => text };
    },
  } as unknown as Session;
  const once = async (steps: Step[], vars: Vars) => {
    const ctx = { vars: draw(vars) };
    await run(sender, steps, ctx, {});
    return ctx.vars;
  };

  const session = async (s: Session) => {
    let pick = Math.random() * total;
    const flow = plan.flows.find((f) => (pick -= f.weight) < 0) ?? plan.flows[0];
    const vars: Vars = draw({ $env: s.env, $processEnvironment: s.env, ...s.setup as Vars, ...s.data });
    const ctx = { vars, _uid: crypto.randomUUID() };
    vars.$uuid = ctx._uid;
    const fnSteps = (names = [] as string[]) => names.map((n) => ({ function: n }));
    const { beforeScenario: before, afterScenario: after } = flow.hooks;
    await run(s, [...fnSteps(before), ...flow.steps, ...fnSteps(after)], ctx, flow.hooks)
      .finally(flushMetricsSoon);
  };
  return {
    session,
    setup: plan.once?.before ? () => once(plan.once!.before!, {}) : undefined,
    teardown: plan.once?.after ? (vars: unknown) => once(plan.once!.after!, vars as Vars) : undefined,
  };
}

/** Writes the session script running `flows` with the processor's hooks; returns its path. */
export function hooksScript(plan: Omit<HooksPlan, "flows">, flows: Array<Record<string, any>>): string {
  const all: HooksPlan = {
    ...plan,
    flows: flows.map(({ weight, steps, hooks = {} }) => ({ weight, steps, hooks })),
  };
  // An ES module processor (.mjs) is imported, its named exports the hooks, as Artillery imports it.
  const esm = plan.processor?.endsWith(".mjs")
    ? JSON.stringify(pathToFileURL(plan.processor).href)
    : undefined;
  const code = `import { artilleryHooks } from ${JSON.stringify(import.meta.url)};\n` +
    (esm ? `import * as esm from ${esm};\n` : "") +
    `const hooks = artilleryHooks(${JSON.stringify(all)}${esm ? ", esm" : ""});\n` +
    "export default hooks.session;\nexport const { setup, teardown } = hooks;\n";
  // Named as the processor, so a load error names the file its user knows.
  const name = basename(plan.processor ?? "artillery.js").replace(/\.[cm]?js$/, "") + ".js";
  const path = join(cachePathOf("artillery", code), name);
  writeWhole(path, code);
  return path;
}
