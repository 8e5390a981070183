import assert from "node:assert/strict";
import { profilePath } from "./one.ts";

Deno.test("profile file names: a name that is safe stays, two runs whose names differ never share a file", () => {
  assert.equal(profilePath("steady", "target"), "profiles/steady.target.cpuprofile");
  const names = ["x/y_z", "x_y/z", "x y/z", "x_y_z", "a/b[rate=800]#2", "a/b[rate=800]#3", "../up", "__/up"];
  const paths = names.map((name) => profilePath(name, "target"));
  assert.equal(new Set(paths).size, names.length, paths.join("\n"));
  for (const path of paths) assert.match(path, /^profiles\/[A-Za-z0-9.=_-]+\.target\.cpuprofile$/);
  // A 300-character sweep value is cut with its hash: the filesystem refuses names over 255 bytes.
  const long = ["v", "w"].map((c) => profilePath(`a/b/query.x=${c.repeat(300)}`, "target"));
  assert.notEqual(long[0], long[1]);
  for (const path of long) assert.ok(path.length < 200, path);
});
