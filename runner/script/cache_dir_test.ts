import { ok, throws } from "node:assert/strict";
import { writeWhole } from "./cache_dir.ts";
import { jsonFromChild } from "../../tests/helpers.ts";

Deno.test("a cache folder that cannot be made is an output error naming the variable to set", () => {
  // /proc takes no new folder, even for root.
  throws(
    () => writeWhole("/proc/loadlab-cache/loadlab/k6/x.js", "export default 1;"),
    (err: Error) =>
      err.name === "OutputError" &&
      /^cannot make loadlab's script cache \/proc\/loadlab-cache\/loadlab\/k6: .*; set XDG_CACHE_HOME/.test(
        err.message,
      ),
  );
});

Deno.test("an empty or relative XDG_CACHE_HOME or HOME is unset: the cache is under an absolute folder", async () => {
  const module = new URL("./cache_dir.ts", import.meta.url).href;
  const code = `import { conversionCacheDir } from "${module}";
console.log(JSON.stringify([conversionCacheDir(), Deno.cwd()]));`;
  for (const [xdg, home] of [["", ""], ["cache", "home"], ["", "/tmp/home"]]) {
    const [dir, cwd] = await jsonFromChild(code, { XDG_CACHE_HOME: xdg, HOME: home }) as string[];
    ok(dir.startsWith(home.startsWith("/") ? `${home}/.cache/` : `${cwd}/.cache/`), dir);
  }
});
