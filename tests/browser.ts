/// <reference lib="dom" />
/**
 * @module
 * Opening a report.html in a real browser, for the end-to-end tests of the presets: Debian's chromium
 * (headless, through playwright-core, as tests/report_browser_test.ts) loads the page from file://, waits
 * until the script has built it, lets the caller look at it (count canvases, take a screenshot), and returns
 * every console error or warning and page error, which must be none. Tests using it skip with
 * `ignore: !requireProgram("chromium")` (tests/helpers.ts).
 */
import { chromium, type Page } from "playwright-core";
import { findProgram } from "../system/path_lookup.ts";

const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
];

/** What a visit found: the browser's complaints, and what `inspect` returned. */
export interface ReportVisit<T> {
  /** Console errors and warnings (CSP violations included) and uncaught page errors. */
  problems: string[];
  value: T;
}

/**
 * Opens `path` (a report.html) in headless chromium, runs `inspect` on the built page, and closes the
 * browser. The page is built once `#app` holds its first section; charts draw in the same task.
 */
export function openReport<T>(
  path: string,
  inspect: (page: Page) => Promise<T>,
  opts: { width?: number; height?: number } = {},
): Promise<ReportVisit<T>> {
  return openPage(`file://${path}`, inspect, opts);
}

/** Where to look and when the page counts as built; `setup` runs before the page loads (dialog handlers). */
export interface PageOptions {
  width?: number;
  height?: number;
  /** A selector present once the page is built (default `#app section`). */
  ready?: string;
  setup?: (page: Page) => void;
}

/** `openReport` for any URL (a served page, a file:// URL with a query), waiting for `opts.ready`. */
export async function openPage<T>(
  url: string,
  inspect: (page: Page) => Promise<T>,
  opts: PageOptions = {},
): Promise<ReportVisit<T>> {
  const executablePath = findProgram("chromium") ?? findProgram("chromium-browser") ?? "/usr/bin/chromium";
  const browser = await chromium.launch({ executablePath, args: ARGS, timeout: 30_000 });
  try {
    const page = await browser.newPage({
      viewport: { width: opts.width ?? 1360, height: opts.height ?? 1000 },
    });
    page.setDefaultTimeout(15_000);
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" || m.type() === "warning" ? problems.push(m.text()) : 0);
    page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
    opts.setup?.(page);
    await page.goto(url);
    await page.waitForSelector(opts.ready ?? "#app section");
    const value = await inspect(page);
    return { problems, value };
  } finally {
    await browser.close();
  }
}

/** Canvases (by aria-label) with no drawn pixel: a chart that failed to draw. */
export function blankCanvases(page: Page, selector = "canvas"): Promise<string[]> {
  return page.evaluate((sel) =>
    // toDataURL rather than getImageData: repeated getImageData makes chromium log a warning.
    [...document.querySelectorAll(sel)].filter((c) => {
      const canvas = c as HTMLCanvasElement;
      const blank = document.createElement("canvas");
      [blank.width, blank.height] = [canvas.width, canvas.height];
      return canvas.width === 0 || canvas.toDataURL() === blank.toDataURL();
    }).map((c) => c.getAttribute("aria-label") ?? "?"), selector);
}
