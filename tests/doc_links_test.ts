/**
 * @module
 * Every relative link in the repository's Markdown (README.md, docs/, deploy/, ...) leads somewhere: its
 * file or folder exists, and a `#fragment` names a heading of the file it points to (GitHub's anchors:
 * lower case, punctuation dropped, spaces as `-`, `-1`, `-2` for repeats). Links inside code spans and
 * fenced blocks are text, not links; `http:`, `https:` and `mailto:` links are not checked (no network).
 * Every path into the repository a doc names (`runner/http/h2/`, `results/io.ts`) exists too, so a move
 * that leaves a doc behind fails here; the dated lab notebook (docs/lab/) is left as it was written.
 */
import { deepStrictEqual as assertEquals } from "node:assert/strict";
import { dirname, join, relative } from "node:path";

const ROOT = new URL("../", import.meta.url).pathname;
const SKIP_DIRS = new Set(["node_modules", ".git", "dist", "out"]);

async function markdownFiles(dir = ROOT): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory && !SKIP_DIRS.has(entry.name)) out.push(...await markdownFiles(path));
    else if (entry.isFile && entry.name.endsWith(".md")) out.push(path);
  }
  return out.sort();
}

/** The text with fenced code blocks and code spans blanked (their brackets are not links). */
export function proseOf(markdown: string): string {
  return markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, (block) => block.replace(/[^\n]/g, " "))
    .replace(/(`+)[^`]*?\1/g, (span) => " ".repeat(span.length));
}

/** The link targets of a Markdown text: inline links and images, and reference definitions. */
export function linkTargets(markdown: string): string[] {
  const prose = proseOf(markdown);
  const inline = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  const defined = [...prose.matchAll(/^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]);
  return [...inline, ...defined];
}

/** GitHub's anchors for the headings of a Markdown text. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const text = markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of text.matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const rendered = m[1].replace(/!?\[([^\]]*)\]\([^)]*\)/g, "$1");
    const slug = rendered.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

/** Why `target`, linked from the Markdown file `from`, leads nowhere; undefined when it resolves. */
async function brokenBecause(from: string, target: string, own: string): Promise<string | undefined> {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // http:, https:, mailto:
  const [pathPart, fragment] = target.split("#", 2);
  const path = pathPart === "" ? from : join(dirname(from), decodeURIComponent(pathPart));
  let text = own;
  try {
    const info = await Deno.stat(path);
    if (fragment === undefined || !info.isFile || !path.endsWith(".md")) return undefined;
    if (path !== from) text = await Deno.readTextFile(path);
  } catch {
    return "no such file or folder";
  }
  return headingAnchors(text).has(decodeURIComponent(fragment)) ? undefined : `no heading #${fragment}`;
}

Deno.test("every relative link in the Markdown files resolves", async () => {
  const broken: string[] = [];
  let checked = 0;
  for (const file of await markdownFiles()) {
    const text = await Deno.readTextFile(file);
    for (const target of linkTargets(text)) {
      checked++;
      const why = await brokenBecause(file, target, text);
      if (why) broken.push(`${relative(ROOT, file)}: ${target} (${why})`);
    }
  }
  assertEquals(broken, []);
  assertEquals(checked > 50, true, `only ${checked} links found: is the link reader broken?`);
});

/** The top-level folders of the repository, so a path a doc names can be told from other slashes. */
const REPO_FOLDERS =
  /(?<![\w./-])((?:bench|cli|deploy|docs|examples|http1|http2|report|results|runner|scenarios|system|targets|tests|tools|validation|ws)\/[\w./-]*[\w/])/g;

/** The repository paths a Markdown text names (in links, code spans or prose), as written. */
export function repoPaths(markdown: string): string[] {
  return [...markdown.matchAll(REPO_FOLDERS)].map((m) => m[1]);
}

Deno.test("every repository path the docs name exists", async () => {
  const missing: string[] = [];
  for (const file of await markdownFiles()) {
    // The lab notebook is dated: it names files as they were that day.
    if (relative(ROOT, file).startsWith("docs/lab/")) continue;
    for (const path of repoPaths(await Deno.readTextFile(file))) {
      try {
        await Deno.stat(join(ROOT, path));
      } catch {
        missing.push(`${relative(ROOT, file)}: ${path}`);
      }
    }
  }
  assertEquals(missing, []);
});

Deno.test("the link reader finds links and anchors as GitHub does", () => {
  const md = "# Run `loadlab run`: the verdict\n## Exit codes\n## Exit codes\n" +
    'See [a](docs/A.md#exit-codes), ![img](x.png "title"), `[not](a link)`\n' +
    "```\n[nor](this)\n```\n[ref]: ./b.md\n";
  assertEquals(linkTargets(md), ["docs/A.md#exit-codes", "x.png", "./b.md"]);
  assertEquals([...headingAnchors(md)], ["run-loadlab-run-the-verdict", "exit-codes", "exit-codes-1"]);
  assertEquals(repoPaths("see `runner/http/h2/` and runner/load/models/mod.ts, not 8080/ or a/b.ts."), [
    "runner/http/h2/",
    "runner/load/models/mod.ts",
  ]);
});
