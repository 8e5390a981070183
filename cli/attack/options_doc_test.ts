import assert from "node:assert/strict";
import { attackHelp, OPTION_FLAGS } from "./flags.ts";
import { defaultText } from "../flag_values.ts";
import { GRPC_OPTIONS, OPTION_ROWS, type OptionKey, OPTIONS } from "../../runner/config_fields.ts";
import { grpcSectionSchema } from "../../scenarios/grpc/experiment.ts";
import { DATA_OPTIONS, dataSourceSchema } from "../../scenarios/data_sources.ts";
import { parseAttackConfig } from "../../runner/config.ts";
import { WS_DEFAULTS, WS_OPTIONS } from "../../runner/http/ws/config.ts";
import { TLS_OPTIONS, tlsOptionsSchema } from "../../runner/http/tls/options.ts";
import type { Option } from "../../runner/option.ts";

const docs = (name: string) => Deno.readTextFileSync(new URL(`../../docs/${name}`, import.meta.url));

Deno.test("docs/REFERENCE.md's flags table has each option's flag with the default the option declares", () => {
  const doc = docs("REFERENCE.md");
  const from = doc.indexOf("\n## Flags");
  const rows = [...doc.slice(from, doc.indexOf("\n## ", from + 1)).matchAll(/^\| (.+?) +\| (.+?) +\|$/gm)];
  for (const [key, { long }] of Object.entries(OPTION_FLAGS)) {
    const row = rows.find(([, flags]) => new RegExp(`\`[^\`]*--${long}[ \`]`).test(flags));
    assert.ok(row, `${key}: no row of the flags table names --${long}`);
    const fallback = defaultText(OPTIONS[key as OptionKey]);
    if (fallback !== undefined) {
      assert.match(
        row[2],
        new RegExp(`\\(${fallback}[;)]`),
        `${key}: the row of --${long} does not say (${fallback})`,
      );
    }
  }
});

Deno.test("docs/EXPERIMENTS.md names every option a load sets in a file", () => {
  const doc = docs("EXPERIMENTS.md");
  const loads = doc.slice(doc.indexOf("\nloads:"), doc.indexOf("\n# together:"));
  for (const [key, option] of OPTION_ROWS) {
    if (option.file === undefined) continue;
    assert.match(
      loads,
      new RegExp(`\\b${option.file}\\b`),
      `${key}: the loads section never names ${option.file}`,
    );
  }
});

Deno.test("attack --help shows each flag of the tables with the default the parsed config gets", () => {
  const help = attackHelp().split("\n");
  // The models' own options: the default of the first of these models that has the field.
  const configs = [{ model: "connections" as const }, { model: "count" as const, requests: 1 }]
    .map((load) => parseAttackConfig({ url: "ws://127.0.0.1:1/", ...load }) as Record<string, unknown>);
  const tls: Record<string, unknown> = tlsOptionsSchema.parse({});
  const rows = (table: Record<string, Option>, prefix: string, config: (k: string) => unknown) =>
    Object.entries(table).map(([k, o]): [string, Option, unknown] => [prefix + k, o, config(k)]);
  const all = [
    ...rows(OPTIONS, "", (k) => configs.find((c) => k in c)?.[k]),
    ...rows(WS_OPTIONS, "ws.", (k) => WS_DEFAULTS[k as never]),
    ...rows(TLS_OPTIONS, "tls.", (k) => tls[k]),
    ...rows(GRPC_OPTIONS, "grpc.", (k) => grpcSectionSchema.parse({})[k as never]),
    // whenDone's default follows the order (wrap, or stop for unique): --help names it in words.
    ...rows(
      DATA_OPTIONS,
      "data.",
      (k) => k === "whenDone" ? undefined : dataSourceSchema.parse({ file: "r.csv" })[k as never],
    ),
  ];
  for (const [key, o, parsed] of all) {
    if (o.flag === undefined) continue;
    const own = o.schema.safeParse(undefined);
    if (own.success) assert.deepEqual(own.data, parsed, `${key}: the config's default is not the row's`);
    const at = help.findIndex((line) => line.includes(` ${o.flag} `) || line.endsWith(` ${o.flag}`));
    assert.ok(at >= 0, `${key}: --help never shows ${o.flag}`);
    const fallback = defaultText(o);
    if (fallback === undefined) continue;
    assert.ok(
      help.slice(at, at + 2).some((line) => line.endsWith(`[${fallback}]`)),
      `${key}: ${o.flag} does not show [${fallback}] in --help`,
    );
  }
});
