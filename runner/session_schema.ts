/**
 * @module
 * The session parts of a config: a data source, a step's captures and checks, shared flow fields.
 */
import { z } from "zod";
import { isPackedRows, type PackedRows, packRows } from "./data_rows.ts";
import { readJsonPath } from "./json_path.ts";
import { customIssue } from "../validation/mod.ts";
import { compileCondition } from "./step_condition.ts";

/** A value name: a data column or a capture (`{{ name }}` in a request). */
export const VALUE_NAME = /^[A-Za-z_][A-Za-z0-9_.-]*$/;
const valueName = z.string().regex(
  VALUE_NAME,
  "a name is letters, digits, _ . - (starting with a letter or _)",
);

/** A `regexp` that does not compile is an issue at its path, with the engine's reason and the fix. */
function regexpRule(regexp: string | undefined, ctx: z.RefinementCtx): void {
  if (regexp === undefined) return;
  try {
    new RegExp(regexp);
  } catch (err) {
    // The engine's reason, then the fix: a JS pattern without slashes, backslashes doubled in YAML's "...".
    customIssue(
      ctx,
      ["regexp"],
      `${(err as Error).message}: write a JavaScript regular expression without slashes, e.g. "id=([0-9]+)"`,
    );
  }
}

/** A JSON path (after its "$", said by the schema) that loadlab cannot read, as an issue with the fix. */
function jsonPathRule(path: string, ctx: z.RefinementCtx): void {
  const read = readJsonPath(path);
  if (path.startsWith("$") && !Array.isArray(read)) customIssue(ctx, [], read.problem);
}

/** A capture's group past its regexp's groups would find nothing in every response: refused where written. */
function groupRule(regexp: string | undefined, group: number | undefined, ctx: z.RefinementCtx): void {
  if (regexp === undefined || group === undefined) return;
  let groups: number;
  try {
    // An alternative that matches the empty text gives an array of the pattern's groups, all unset.
    groups = new RegExp(`(?:${regexp})|`).exec("")!.length - 1;
  } catch {
    return; // regexpRule says why it does not compile
  }
  if (group <= groups) return;
  customIssue(
    ctx,
    ["group"],
    `group ${group} is past the regexp's ${groups} group${groups === 1 ? "" : "s"}: give 0 (the whole match)${
      groups > 0 ? ` to ${groups}` : ""
    }`,
  );
}

/** A value for later steps: a JSON path, a header or a regexp group; none found ends the session. */
const captureSpecSchema = z.strictObject({
  json: z.string().startsWith("$", 'a JSON path starts with "$", e.g. "$.token"').superRefine(jsonPathRule)
    .optional(),
  header: z.string().min(1).optional(),
  regexp: z.string().min(1).optional(),
  /** The regexp's group (default 1 when it has one, else the whole match). */
  group: z.number().int().min(0).optional(),
  /** A value found that is not this one (a JSON value compared as JSON) ends the session too. */
  equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  as: valueName,
}).superRefine((c, ctx) => {
  const given = (["json", "header", "regexp"] as const).filter((k) => c[k] !== undefined);
  if (given.length !== 1) {
    customIssue(ctx, [], "a capture takes one of json, header or regexp (and as)");
  }
  if (c.group !== undefined && c.regexp === undefined) {
    customIssue(ctx, ["group"], "group applies to regexp captures");
  }
  regexpRule(c.regexp, ctx);
  groupRule(c.regexp, c.group, ctx);
});
export type CaptureSpec = z.infer<typeof captureSpecSchema>;

/** The fields of a check (and of a ws step's match, which has no status: runner/ws_step_spec.ts). */
const statusCode = z.number().int().min(100).max(999);
export const checkFields = {
  /** The status, or a list of them: any of them passes. */
  status: z.union([statusCode, z.array(statusCode).min(1)]).optional(),
  /** A response header (its values joined by ", ") tested with equals, exists, contains or regexp. */
  header: z.string().min(1).optional(),
  json: z.string().startsWith("$", 'a JSON path starts with "$", e.g. "$.ok"').superRefine(jsonPathRule)
    .optional(),
  equals: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
  exists: z.boolean().optional(),
  contains: z.string().optional(),
  /** A regular expression that must find a match in the body (or the message). */
  regexp: z.string().min(1).optional(),
};

/** One kind per check: status, json (with equals or exists), contains or regexp; `kindsText` says so. */
export function checkRules(
  c: z.output<z.ZodObject<typeof checkFields>>,
  ctx: z.RefinementCtx,
  kindsText = "a check takes one of status, json (with equals or exists), contains or regexp",
): void {
  const kinds = [c.status, c.json, c.contains, c.regexp].filter((k) => k !== undefined);
  const tests = [c.equals, c.exists, c.contains, c.regexp].filter((k) => k !== undefined);
  if (c.header !== undefined) {
    if (c.status !== undefined || c.json !== undefined || tests.length !== 1) {
      customIssue(ctx, ["header"], "a header check takes one of equals, exists, contains or regexp");
    }
  } else if (kinds.length !== 1) {
    customIssue(ctx, [], kindsText);
  } else if (c.json !== undefined && (c.equals === undefined) === (c.exists === undefined)) {
    customIssue(ctx, ["json"], "a json check takes equals or exists (one of them)");
  } else if (c.json === undefined && (c.equals !== undefined || c.exists !== undefined)) {
    customIssue(ctx, [], "equals and exists go with json");
  }
  regexpRule(c.regexp, ctx);
}

/** A check of a step's response (k6's checks); a failed one is counted and never ends the session. */
const checkSpecSchema = z.strictObject(checkFields).superRefine((c, ctx) => checkRules(c, ctx));
export type CheckSpec = z.infer<typeof checkSpecSchema>;

/** The most a step's `maxKeptBytes` may be: one response held whole per connection. */
const MAX_KEPT_BYTES = 256 * 1024 * 1024;

/** The most bytes of a step's response kept (1 MiB default); past it the step fails as `body-too-large`. */
const maxKeptBytesSchema = z.number().int()
  .min(1024, "maxKeptBytes must be >= 1024")
  .max(MAX_KEPT_BYTES, `maxKeptBytes must be <= ${MAX_KEPT_BYTES} (256 MiB)`);

/** What a flow is beyond its steps, stated once for experiment files and the attack config. */
export const flowFields = {
  name: z.string().min(1, "a flow needs a name"),
  weight: z.number().positive("weight must be > 0").default(1),
  /** The `maxRedirects` of its request steps that give none (default 0). */
  maxRedirects: z.number().int().min(0).max(20, "maxRedirects must be <= 20").optional(),
};

/** What a request step carries beside its request, the same in a file and in the attack config. */
export const requestStepFields = {
  /** Name of the step in per-step statistics (default: METHOD PATH). */
  label: z.string().min(1).optional(),
  /** Values taken from the response for later steps (`{{ as }}`): json, header or regexp. */
  capture: z.array(captureSpecSchema).optional(),
  /** Checks of the response, counted per check: status, json equals/exists, contains. */
  expect: z.array(checkSpecSchema).optional(),
  /** The most bytes of the response kept for captures and checks (1 MiB); past it the step fails. */
  maxKeptBytes: maxKeptBytesSchema.optional(),
  /** Redirects (a same-origin 3xx Location) a session follows, each a request of this step (default 0). */
  maxRedirects: flowFields.maxRedirects,
  /** Whether a session sends the request, over its values (`itemId > 3`); false skips it for that session. */
  ifTrue: z.string().refine(
    (text) => compileCondition(text, () => () => 0) !== null,
    'ifTrue reads or, and, not, == != < <= > >=, + - * / % ^, numbers, "strings" and names, e.g. "id > 3"',
  ).optional(),
};

/** How a data source's rows are picked, and what a worker does when its rows run out. */
export const dataOrderSchema = z.enum(["sequential", "random", "unique"]).default("sequential");
export const whenDoneSchema = z.enum(["wrap", "stop"]).default("wrap");

/** A data source as the workers take it: packed rows are checked by shape, never walked. */
export const dataSpecSchema = z.strictObject({
  name: z.string().min(1),
  columns: z.array(valueName).min(1, "a data source needs at least one column"),
  rows: z.union([
    z.custom<PackedRows>(isPackedRows),
    z.array(z.array(z.string())).min(1, "a data source needs at least one row"),
  ], { error: "rows are rows of text (arrays of strings)" }),
  order: dataOrderSchema,
  whenDone: whenDoneSchema,
}).superRefine((d, ctx) => {
  if (d.order === "unique" && d.whenDone === "wrap") {
    customIssue(
      ctx,
      ["whenDone"],
      "unique uses each row once: whenDone must be stop (or use order: sequential to wrap)",
    );
  }
  const widths = Array.isArray(d.rows) ? d.rows.map((r) => r.length) : [d.rows.columns];
  const bad = widths.findIndex((n) => n !== d.columns.length);
  if (bad >= 0) {
    customIssue(ctx, ["rows", bad], `row has ${widths[bad]} values, not ${d.columns.length}`);
  }
  if (!Array.isArray(d.rows) && d.rows.count === 0) {
    customIssue(ctx, ["rows"], "a data source needs at least one row");
  }
}).transform((d) => ({ ...d, rows: Array.isArray(d.rows) ? packRows(d.rows, d.columns.length) : d.rows }));
export type DataSpec = z.infer<typeof dataSpecSchema>;
