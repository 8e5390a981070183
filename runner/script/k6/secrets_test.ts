import { deepStrictEqual as assertEquals, throws } from "node:assert/strict";
import { secretSources } from "./secrets.ts";

const files: Record<string, string> = { "a.txt": "token=t1\nregion=eu\n", "crlf.txt": "k=v\r\nx=y" };
const read = (path: string) =>
  files[path] ?? (() => {
    throw new Error(`open ${path}: no such file or directory`);
  })();
const shown = (lines: string[]) =>
  Object.fromEntries(
    [...secretSources(lines, read)].map(([name, values]) => [name, Object.fromEntries(values)]),
  );

Deno.test("--secret-source lines read as k6 v1 reads them: names, the default, one source alone", () => {
  // One source alone is the default, named by its type.
  assertEquals(shown(["file=a.txt"]), {
    file: { token: "t1", region: "eu" },
    default: { token: "t1", region: "eu" },
  });
  assertEquals(shown(["file=filename=crlf.txt"]).default, { k: "v", x: "y" });
  // Named, one of them the default; a mock's values keep what follows their first =.
  assertEquals(shown(["file=name=vault,a.txt", "mock=name=ops,default,key=a=b"]), {
    vault: { token: "t1", region: "eu" },
    ops: { key: "a=b" },
    default: { key: "a=b" },
  });
  // Two sources, no default: get() of the default source rejects ("no secret source with name...").
  assertEquals(Object.keys(shown(["mock=name=a,k=1", "mock=name=b,k=2"])), ["a", "b"]);
  assertEquals(shown([]), {});
});

Deno.test("a --secret-source line k6 refuses is refused, naming why", () => {
  throws(() => shown(["env"]), /no secret source of type "env" here/);
  throws(() => shown(["url=urlTemplate=x"]), /of type "url"/);
  throws(() => shown(["mock=novalue"]), /parsing "novalue", needs =/);
  throws(() => shown(["mock=name=a,k=1", "file=name=a,a.txt"]), /a second source named "a"/);
  throws(() => shown(["mock=default,k=1", "mock=name=b,default,k=2"]), /a second default/);
  throws(() => shown(["file=missing.txt"]), /no such file/);
});
