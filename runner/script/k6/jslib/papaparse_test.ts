/** Papa Parse's answers for the strings k6 scripts parse (its documented results, checked by hand). */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { parse } from "./papaparse.ts";

Deno.test("papaparse: fields, quotes, line breaks and the empty last line as Papa Parse gives them", () => {
  assertEquals(parse('a,"b, c","say ""hi""\nline"\r\n1,2,3').data, [["a", "b, c", 'say "hi"\nline'], [
    "1",
    "2",
    "3",
  ]]);
  assertEquals(parse("a;b\n1;2\n", { delimiter: ";" }).data, [["a", "b"], ["1", "2"], [""]]);
  assertEquals(parse("a,b\n1,2\n", { skipEmptyLines: true }).data, [["a", "b"], ["1", "2"]]);
  assertEquals(parse("a,b\n , \n1,2", { skipEmptyLines: "greedy" }).data, [["a", "b"], ["1", "2"]]);
  assertEquals(parse("").data, []);
});

Deno.test("papaparse: header rows as objects, dynamicTyping, a row of too few fields reported", () => {
  const out = parse("name,age,ok\nal,3,true\nbo,,FALSE\ncy", { header: true, dynamicTyping: true });
  assertEquals(out.data, [{ name: "al", age: 3, ok: true }, { name: "bo", age: null, ok: false }, {
    name: "cy",
  }]);
  assertEquals(out.errors.map((e) => [e.code, e.row]), [["TooFewFields", 2]]);
  assertEquals(out.meta.fields, ["name", "age", "ok"]);
  assertEquals(parse("A,B\n1,2", { header: true, transformHeader: (h) => h.toLowerCase() }).data, [{
    a: "1",
    b: "2",
  }]);
});
