/**
 * @module
 * `loadlab init --script [DIR]`: writes a starter `session.ts` and the types it imports.
 */
import { join } from "node:path";
import { EXIT } from "./exit_codes.ts";
import { runCommand } from "./command_errors.ts";
import { UsageError } from "./usage_error.ts";
import { tokenize } from "./argv.ts";
import { osErrorText, OutputError } from "../system/output_file.ts";

const HELP = `loadlab init --script [DIR]: a starter session script and its types in DIR (default .)

  session.ts           the default export runs once per session; edit it, then: loadlab run session.ts
  loadlab_session.ts   the types it imports (Session, Response, RequestOptions)`;

/** The types users import; read from loadlab itself (`deno compile --include`s it). */
const TYPES_URL = new URL("../runner/script/session.ts", import.meta.url);

const STARTER =
  `// A session script: the default export runs once per session (each virtual user loops it in a
// closed load; each arrival runs it once in an open one). Run it: loadlab run session.ts
// Docs: docs/SCRIPTS.md in loadlab's repository.
import type { Session } from "./loadlab_session.ts";

/** What an experiment file would say; used by \`loadlab run session.ts\`. */
export const options = {
  targets: { app: { kind: "builtin" } },
  loads: { try: { model: "connections", connections: 10, duration: "10s" } },
  thresholds: ["p99 < 200ms"],
};

export default async (s: Session) => {
  const login = await s.post("/login", { json: { user: \`user\${s.vu}\`, password: "secret" }, name: "login" });
  if (!s.check(login.status === 200, "logged in")) return;
  const { token } = login.json<{ token: string }>();
  const me = await s.get("/me", { headers: { authorization: \`Bearer \${token}\` }, name: "me" });
  s.check(me.status === 200, "me answers");
  await s.sleep(100);
};
`;

export function runInitCommand(argv: string[]): Promise<number> {
  return runCommand("init", async () => {
    const specs = [{ long: "script", takesValue: false }, { long: "help", short: "h", takesValue: false }];
    const raw = tokenize(argv, specs, {}, "init", HELP);
    if (!raw.values.has("script")) {
      throw new UsageError("say what to start: loadlab init --script [DIR] (a session script)");
    }
    if (raw.positionals.length > 1) {
      throw new UsageError(
        `takes one folder (found ${raw.positionals.join(" ")}); e.g. loadlab init --script .`,
      );
    }
    const dir = raw.positionals[0] ?? ".";
    if (dir === "") throw new UsageError(`--script "": empty path; e.g. loadlab init --script .`);
    await makeFolder(dir);
    const script = join(dir, "session.ts");
    const typesPath = join(dir, "loadlab_session.ts");
    const types = await Deno.readTextFile(TYPES_URL);
    const typesBefore = await existingTypes(typesPath);
    await writeOutput(script, () => Deno.writeTextFile(script, STARTER, { createNew: true }));
    if (typesBefore !== types) await writeOutput(typesPath, () => Deno.writeTextFile(typesPath, types));
    const replaced = typesBefore !== null && typesBefore !== types ? ` (replaced its older types)` : "";
    console.log(`wrote ${script} and ${typesPath}${replaced}; run it: loadlab run ${script}`);
    return EXIT.ok;
  });
}

/** Creates `dir` (and its parents); a path that is not a folder is bad input, a refusal of the OS exit 5. */
async function makeFolder(dir: string): Promise<void> {
  const info = await Deno.stat(dir).catch((err) => err instanceof Deno.errors.NotFound ? null : err);
  if (info instanceof Error) {
    throw new UsageError(
      `${dir}: cannot be read (${osErrorText(info)}); give a folder: loadlab init --script DIR`,
    );
  }
  if (info !== null && !info.isDirectory) {
    throw new UsageError(`${dir} is not a folder; give a folder: loadlab init --script DIR`);
  }
  if (info === null) await writeOutput(dir, () => Deno.mkdir(dir, { recursive: true }));
}

/** The text of the types file at `path`, null when there is none; anything but a regular file is refused. */
async function existingTypes(path: string): Promise<string | null> {
  const info = await Deno.lstat(path).catch((err) => err instanceof Deno.errors.NotFound ? null : err);
  if (info === null) return null;
  if (info instanceof Error || !info.isFile) {
    throw new UsageError(`${path} exists and is not a regular file; remove it, or pick another folder`);
  }
  return await Deno.readTextFile(path);
}

/** Runs a write; an existing script is bad input (exit 2), any other refusal an output error (exit 5). */
async function writeOutput(path: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (err) {
    if (err instanceof Deno.errors.AlreadyExists) {
      throw new UsageError(`${path} exists; pick another folder: loadlab init --script DIR`);
    }
    throw new OutputError(`${path}: cannot write: ${osErrorText(err)}`, { cause: err });
  }
}
