/**
 * @module
 * Session scripts for truth-table rows about the generator itself: a script whose sessions spend a set
 * CPU time per request (the session's own work: the generator's queue) or sleep a think time, a target
 * that answers at once, and one real `loadlab run` of the script with its results.
 */
import type { RunResult } from "../../results/mod.ts";
import { runLoadlab } from "../helpers.ts";

const SESSION = new URL("../../runner/script/session.ts", import.meta.url).href;

/**
 * A session script against `url` under `load` (an experiment file's load, as an object literal): `burnMs`
 * of CPU before or after (`burnFirst`) one GET, then `thinkMs` asleep.
 */
export function sessionScript(
  url: string,
  load: string,
  burnMs: number,
  thinkMs: number,
  burnFirst = false,
): string {
  const burn = `const until = performance.now() + ${burnMs};
  while (performance.now() < until) { /* the session's own work */ }`;
  return `import type { Session } from "${SESSION}";
export const options = { targets: { t: { url: "${url}" } }, loads: { l: ${load} } };
export default async (s: Session) => {
  ${burnFirst ? burn : ""}
  await s.get("/");
  ${burnFirst ? "" : burn}
  if (${thinkMs} > 0) await s.sleep(${thinkMs});
};
`;
}

/** Runs `fn` with the URL of a server answering every request at once. */
export async function withFastServer(fn: (url: string) => Promise<void>): Promise<void> {
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, () => new Response("ok"));
  try {
    await fn(`http://127.0.0.1:${server.addr.port}`);
  } finally {
    await server.shutdown();
  }
}

/** `run` of a script written to `dir`: exit code, stdout, stderr and its one run. */
export async function runScript(dir: string, name: string, text: string, strict = false) {
  await Deno.writeTextFile(`${dir}/${name}.ts`, text);
  const r = await runLoadlab([
    "run",
    `${dir}/${name}.ts`,
    "--out-dir",
    `${dir}/${name}${strict ? "-strict" : ""}`,
    ...(strict ? ["--strict"] : []),
  ]);
  const file = `${dir}/${name}${strict ? "-strict" : ""}/results.json`;
  const run: RunResult = JSON.parse(await Deno.readTextFile(file)).runs[0];
  return { ...r, run };
}
