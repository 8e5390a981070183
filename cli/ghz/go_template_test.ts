/**
 * @module
 * Go's text/template over ghz's call data: each template's output as Go 1.26 gives it (run by Go's own
 * text/template over the same call data, call 7 of helloworld.Greeter.SayHello), its parse errors in Go's
 * words, and the executions Go fails.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { GO_EXEC_FAILED, GoParseError, parseGo, runGo } from "./go_template.ts";

const DOT = {
  WorkerID: "",
  RequestNumber: 7,
  MethodName: "SayHello",
  IsClientStreaming: false,
  IsServerStreaming: false,
};

/** The template's output, or Go's parse error, or "EXEC" where Go's execution fails. */
function go(template: string): string {
  try {
    return runGo(parseGo(template), DOT).join("");
  } catch (err) {
    if (err instanceof GoParseError) return err.message;
    if (err === GO_EXEC_FAILED) return "EXEC";
    throw err;
  }
}

Deno.test("Go's pipelines, printf, blocks and functions give Go's text", () => {
  const cases: Array<[string, string]> = [
    ['{{printf "%05d" .RequestNumber}}', "00007"],
    ["{{printf `%03d-%s` .RequestNumber .MethodName}}", "007-SayHello"],
    ['{{.RequestNumber | printf "%x"}}', "7"],
    ['{{.MethodName | len | printf "%03d"}}', "008"],
    ['{{"abc" | printf "%s-%s" "x"}}', "x-abc"],
    ["{{if lt .RequestNumber 5}}a{{else if gt .RequestNumber 6}}b{{else}}c{{end}}", "b"],
    ["{{index .MethodName 0}} {{slice .MethodName 1 3}} {{len .MethodName}}", "83 ay 8"],
    [
      '{{and .IsClientStreaming "x"}} {{or .IsClientStreaming "x"}} {{not .IsServerStreaming}}',
      "false x true",
    ],
    [
      '{{or 0 "" false}} {{and 1 0 2}} {{eq .MethodName "SayHello" "x"}} {{le 2 2}} {{ge 1 2}}',
      "false 0 true true false",
    ],
    [`{{html "<a href='x'>&</a>"}}`, "&lt;a href=&#39;x&#39;&gt;&amp;&lt;/a&gt;"],
    [`{{js "it's \\"q\\" <b> = &"}}`, `it\\'s \\"q\\" \\u003Cb\\u003E \\u003D \\u0026`],
    ['{{urlquery "a b&c=d/é~*"}}', "a+b%26c%3Dd%2F%C3%A9~%2A"],
    ["{{range 3}}{{.}},{{end}}{{range 0}}x{{else}}none{{end}}", "0,1,2,none"],
    ["{{range $i := 4}}{{if eq $i 2}}{{continue}}{{end}}{{$i}}{{end}}", "013"],
    ["{{range $i := 4}}{{if eq $i 2}}{{break}}{{end}}{{$i}}{{end}}", "01"],
    [
      "{{with .WorkerID}}w{{else}}no worker{{end}} {{with $m := .MethodName}}{{$m}}{{end}}",
      "no worker SayHello",
    ],
    ["{{$x := .RequestNumber}}{{$x}}-{{$x = 3}}{{$x}} {{$.MethodName}}", "7-3 SayHello"],
    ['{{print 1 2 "a" 3 true}}|{{println 1 "a"}}', "1 2a3 true|1 a\n"],
    [
      '{{printf "%d %s" 1}} {{printf "%d" 1 2}} {{printf "%s" 5}} {{printf "%"}}',
      "1 %!s(MISSING) 1%!(EXTRA int=2) %!s(int=5) %!(NOVERB)",
    ],
    [
      '{{printf "%v|%t|%q|%5s|%-5s|%+d|%x" 1.5 true "hi" "ab" "cd" 3 "hi"}}',
      '1.5|true|"hi"|   ab|cd   |+3|6869',
    ],
    [
      '{{printf "%08.3f|%x|%X|%o|%b|%c|%e" 3.14159 255 255 8 5 65 1234.5}}',
      "0003.142|ff|FF|10|101|A|1.234500e+03",
    ],
    ['{{- "  a  " -}}  b  {{- " c" }} x  {{- /* comment */ -}}  y', "  a  b c xy"],
    ["{{'a'}} {{1.5}} {{1e3}} {{0x10}} {{-3}}", "97 1.5 1000 16 -3"],
    // A field of a parenthesized value is its own; one after a space is the next argument.
    ["{{(printf `%s` .MethodName).X}}", "EXEC"],
    [
      "{{or (len `abc`) .IsClientStreaming}} {{.MethodName | }} {{printf `%q|%f|%.1f` -3 7 1.5}}",
      "3 SayHello '\uFFFD'|%!f(int=7)|1.5",
    ],
    // Go's execution fails: ghz then sends the text as written.
    ...["{{.Nope}}", "{{nil}}", "{{.RequestNumber 1}}", '{{eq .RequestNumber "x"}}', "{{lt true false}}"]
      .map((t): [string, string] => [t, "EXEC"]),
    ...['{{index "abc" 5}}', "{{len 3}}", "{{and}}", "{{range $i, $e := 3}}{{$i}}{{end}}"]
      .map((t): [string, string] => [t, "EXEC"]),
    // Go's parse errors, in its words.
    ["{{foo}}", 'template: call_template_data:1: function "foo" not defined'],
    ["x\n{{$y}}", 'template: call_template_data:2: undefined variable "$y"'],
    ["{{if true}}x", "template: call_template_data:1: unexpected EOF"],
    ["{{end}}", "template: call_template_data:1: unexpected {{end}}"],
    ["{{if}}{{end}}", "template: call_template_data:1: missing value for if"],
    ["{{break}}", "template: call_template_data:1: {{break}} outside {{range}}"],
  ];
  for (const [template, want] of cases) assertEquals([template, go(template)], [template, want]);
});

Deno.test("Go's named templates: define, template and block give Go's text and errors", () => {
  const cases: Array<[string, string]> = [
    ['{{define "a"}}[{{.MethodName}}]{{end}}x{{template "a" .}}y', "x[SayHello]y"],
    ["{{template `a` .MethodName}}{{define `a`}}<{{.}}>{{end}} {{template `a`}}", "<SayHello> <<no value>>"],
    ['{{block "b" .}}B{{.RequestNumber}}{{end}}-{{template "b" .}}', "B7-B7"],
    ['{{define "a"}}{{$x := 1}}{{$x}}{{end}}{{$y := 2}}{{template "a" .}}{{$y}}', "12"],
    ['{{define "a"}}one{{end}}{{define "a"}} {{end}}{{template "a"}}', "one"],
    ['{{range 2}}{{template "a" .}}{{end}}{{define "a"}}({{.}}){{end}}', "(0)(1)"],
    ['{{define "a"}}{{$.MethodName}}{{end}}{{with .MethodName}}{{template "a" $}}{{end}}', "SayHello"],
    ...['{{template "nope" .}}', '{{define "a"}}{{template "a" .}}{{end}}{{template "a" .}}']
      .map((t): [string, string] => [t, "EXEC"]),
    ['{{define "a"}}{{$y}}{{end}}{{$y := 2}}', 'undefined variable "$y"'],
    ['{{if true}}{{define "a"}}x{{end}}{{end}}', "unexpected <define> in command"],
    ['{{define "a" .}}x{{end}}', "unexpected <.> in define clause"],
    ["{{define a}}x{{end}}", 'unexpected "a" in define clause'],
    ['{{block "b"}}x{{end}}', "missing value for block clause"],
    ['{{define "a"}}x{{else}}y{{end}}', "unexpected {{else}} in define clause"],
    ['{{define "a"}}1{{end}}{{define "a"}}2{{end}}', 'template: multiple definition of template "a"'],
  ];
  for (const [template, want] of cases) {
    const got = go(template).replace("template: call_template_data:1: ", "");
    assertEquals([template, got], [template, want]);
  }
  // Called with the call data at the top, its pieces are the top's: a lone `.UUID` is filled as a call runs.
  const parts = parseGo(
    '{{define "u"}}{{.UUID}}{{end}}{{define "id"}}id-{{template "u" .}}{{end}}' +
      '{{.RequestNumber}}:{{block "b" .}}{{template "id" .}}{{end}}',
  );
  assertEquals(parts.map((p) => [p.text ?? p.words!.join(" "), p.action]), [
    [".RequestNumber", true],
    [":", false],
    ["id-", false],
    [".UUID", false],
  ]);
});
