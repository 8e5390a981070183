import assert from "node:assert/strict";
import { defaultText, OPTION_FLAGS } from "./flags.ts";
import { OPTION_ROWS, type OptionKey, OPTIONS } from "../../runner/config_fields.ts";

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
