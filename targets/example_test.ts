import {
  deepStrictEqual as assertEquals,
  match as assertMatch,
  throws as assertThrows,
} from "node:assert/strict";
import { TargetError } from "./errors.ts";
import { exampleCommand } from "./example.ts";
import { findProgram } from "../system/path_lookup.ts";

/** A scratch examples/ folder with an express app, its packages installed or not. */
async function scratchExamples(installed: boolean): Promise<URL> {
  const dir = await Deno.makeTempDir();
  await Deno.mkdir(`${dir}/express`);
  await Deno.writeTextFile(`${dir}/express/server.js`, "");
  if (installed) {
    await Deno.mkdir(`${dir}/node_modules/express`, { recursive: true });
    await Deno.writeTextFile(`${dir}/node_modules/express/package.json`, "{}");
  }
  return new URL(`file://${dir}/`);
}

Deno.test({
  name: "exampleCommand: Node when it is on PATH and the packages are installed",
  ignore: !findProgram("node"),
  fn: async () => {
    const dir = await scratchExamples(true);
    try {
      const run = exampleCommand({ kind: "example", app: "express" }, dir);
      assertMatch(run.runtime, /^node v\d+/);
      assertEquals(run.args, [`${dir.pathname}express/server.js`]);
      assertEquals(run.cwd, dir.pathname);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

Deno.test("exampleCommand: Deno's npm compatibility without installed packages, or when asked", async () => {
  for (const [installed, runtime] of [[false, "auto"], [true, "deno"]] as const) {
    const dir = await scratchExamples(installed);
    try {
      const run = exampleCommand({ kind: "example", app: "express", runtime }, dir);
      assertEquals(run.command, Deno.execPath());
      assertEquals(run.runtime, `deno ${Deno.version.deno} (npm compat)`);
      assertEquals(run.args.slice(0, 2), ["run", "-A"]);
      assertEquals(run.args.includes("--no-lock"), true, "never writes into loadlab's deno.lock");
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  }
});

Deno.test("exampleCommand: a missing app or, with runtime node, missing packages is a TargetError", async () => {
  const dir = await scratchExamples(false);
  try {
    assertThrows(() => exampleCommand({ kind: "example", app: "koa" }, dir), /example app 'koa' not found/);
    if (findProgram("node")) {
      assertThrows(
        () => exampleCommand({ kind: "example", app: "express", runtime: "node" }, dir),
        (err: Error) =>
          err instanceof TargetError &&
          /npm install --prefix examples/.test(err.message + err.hint),
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("the shipped examples: one server.js per app", () => {
  for (const app of ["express", "fastify", "koa", "chat"] as const) {
    const run = exampleCommand({ kind: "example", app, runtime: "deno" });
    assertMatch(run.args.at(-1)!, new RegExp(`examples/${app}/server\\.js$`));
  }
});
