/**
 * @module
 * The code of a TypeScript source with its comments (and, on request, the text of its literals) blanked
 * out, so a rule that looks for an identifier such as `Deno` sees only code: `// Deno.exit()` in a comment,
 * `"Deno.env"` in a string or `/Deno/` in a regular expression is not a use, `${Deno.pid}` inside a template
 * is. A small tokenizer instead of the TypeScript compiler: it knows comments, the three kinds of string,
 * template literals with nested `${...}` and regular expression literals (told from a division by the token
 * before the `/`). Blanked characters become spaces and newlines stay, so offsets and line numbers in the
 * result are those of the source.
 */

/** Words after which a `/` starts a regular expression, not a division. */
const REGEX_AFTER_WORD = new Set([
  "return",
  "typeof",
  "instanceof",
  "in",
  "of",
  "new",
  "delete",
  "void",
  "throw",
  "case",
  "do",
  "else",
  "yield",
  "await",
]);

const isWordChar = (c: string) => /[\w$]/.test(c);

/**
 * `source` with comments replaced by spaces; with `strings: false` the contents of string, template and
 * regular expression literals too (their quotes and slashes stay). Template expressions stay code.
 */
export function codeText(source: string, opts: { strings: boolean } = { strings: false }): string {
  const out = source.split("");
  const blank = (from: number, to: number) => {
    for (let k = from; k < to; k++) if (out[k] !== "\n") out[k] = " ";
  };
  const blankLiteral = (from: number, to: number) => opts.strings ? undefined : blank(from, to);
  // One entry per open template expression: the depth of braces opened inside it.
  const templates: number[] = [];
  let i = 0;
  let prev = ""; // the last significant character of code
  let prevWord = ""; // the word it ended, if it ended one

  /** Scans template text from `i` (after the backquote or a closing `}`); returns where code resumes. */
  const templateText = (start: number): number => {
    let j = start;
    while (j < source.length && source[j] !== "`" && !(source[j] === "$" && source[j + 1] === "{")) {
      j += source[j] === "\\" ? 2 : 1;
    }
    blankLiteral(start, Math.min(j, source.length));
    if (source[j] === "`") return j + 1;
    if (j < source.length) templates.push(0);
    return j + 2;
  };

  while (i < source.length) {
    const c = source[i], d = source[i + 1];
    if (c === "/" && d === "/") {
      const end = source.indexOf("\n", i);
      const stop = end < 0 ? source.length : end;
      blank(i, stop), i = stop;
    } else if (c === "/" && d === "*") {
      const end = source.indexOf("*/", i + 2);
      const stop = end < 0 ? source.length : end + 2;
      blank(i, stop), i = stop;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== c && source[j] !== "\n") j += source[j] === "\\" ? 2 : 1;
      blankLiteral(i + 1, Math.min(j, source.length)), i = j + 1, prev = c, prevWord = "";
    } else if (c === "`") {
      i = templateText(i + 1), prev = "`", prevWord = "";
    } else if (c === "/" && startsRegex(prev, prevWord)) {
      let j = i + 1, inClass = false;
      while (j < source.length && source[j] !== "\n" && (inClass || source[j] !== "/")) {
        if (source[j] === "[") inClass = true;
        else if (source[j] === "]") inClass = false;
        j += source[j] === "\\" ? 2 : 1;
      }
      blankLiteral(i + 1, Math.min(j, source.length)), i = j + 1, prev = "/", prevWord = "";
    } else if (c === "}" && templates.length > 0 && templates[templates.length - 1] === 0) {
      templates.pop(), i = templateText(i + 1), prev = "`", prevWord = "";
    } else {
      if (templates.length > 0 && c === "{") templates[templates.length - 1]++;
      if (templates.length > 0 && c === "}") templates[templates.length - 1]--;
      if (isWordChar(c)) {
        let j = i;
        while (j < source.length && isWordChar(source[j])) j++;
        prevWord = source.slice(i, j), prev = source[j - 1], i = j;
      } else {
        if (!/\s/.test(c)) prev = c, prevWord = "";
        i++;
      }
    }
  }
  return out.join("");
}

/** Whether a `/` after this character (and word) starts a regular expression. */
function startsRegex(prev: string, prevWord: string): boolean {
  if (prevWord !== "") return REGEX_AFTER_WORD.has(prevWord);
  return prev === "" || !/[)\]}`'"/]/.test(prev);
}

/** The 1-based line of `offset` in `text`. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let k = 0; k < offset; k++) if (text.charCodeAt(k) === 10) line++;
  return line;
}
