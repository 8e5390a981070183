/**
 * @module
 * The work behind the built-in target's endpoints, testable apart from the Hono wiring.
 */
import { escapeHtml } from "../../validation/terminal_text.ts";

/** Burns CPU for `ms` (cpuTime in docs/studies/cpu-sleep.md); returns the loop count as proof of work. */
export function busyCpu(ms: number): number {
  const end = performance.now() + ms;
  let spins = 0;
  while (performance.now() < end) spins++;
  return spins;
}

/** Naive recursive Fibonacci (fib(23) is docs/studies/frameworks.md's CPU-bound scenario). */
export function fib(n: number): number {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/** Thrown on purpose by `/error/1` so Hono answers 500. */
class DivisionByZeroError extends Error {
  override name = "DivisionByZeroError";
}

/** 100 / (n - 1); n = 1 throws, where JavaScript would give Infinity. */
export function divideBy(n: number): number {
  const divisor = n - 1;
  if (divisor === 0) throw new DivisionByZeroError("division by zero");
  return 100 / divisor;
}

/** The record `/user` answers with (the API of docs/studies/delay-cache-limit.md). */
export const USER_RECORD = {
  id: 1,
  name: "Ada Lovelace",
  email: "ada@example.com",
  roles: ["admin", "author"],
  createdAt: "2024-01-01T00:00:00.000Z",
} as const;

const ARTICLE_TITLES = [
  "Getting started",
  "Caching pages with Redis",
  "Measuring tail latency",
  "Why p99 matters",
  "Rate limiting without tears",
  "Compression trade-offs",
  "Warm-up and the JIT",
  "Open versus closed load models",
];

/** The per-request HTML page standing in for a CMS home page (docs/studies/cache-burst.md). */
export function renderHomePage(now: Date): string {
  const cards: string[] = [];
  for (let i = 0; i < 24; i++) {
    const title = escapeHtml(`${ARTICLE_TITLES[i % ARTICLE_TITLES.length]} #${i + 1}`);
    cards.push(
      `<article class="card"><h2><a href="/static/about.html?a=${i}">${title}</a></h2>` +
        `<p>${escapeHtml(`Part ${i + 1} of the loadlab notes: <${i * 7} words> & more.`)}</p></article>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Home</title>` +
    `<link rel="stylesheet" href="/static/style.css"></head><body><header><h1>loadlab wiki</h1>` +
    `<nav><a href="/home">Home</a> <a href="/static/index.html">Static</a></nav></header>` +
    `<main>${cards.join("")}</main><footer>Rendered at ${now.toISOString()}</footer></body></html>`;
}

/** The sample page whose content changes every second (docs/studies/static-concurrency.md). */
export const NEWS_PATH = "/static/news.html";
/** Header carrying the news page's version, so a cache can tell a stale copy from a fresh one. */
export const VERSION_HEADER = "x-page-version";

/** The epoch second, so it changes every second. */
export function newsVersion(nowMs: number): string {
  return String(Math.floor(nowMs / 1000));
}

/** Over 1 KiB, so it is compressed like the other sample pages. */
export function renderNewsPage(version: string): string {
  const items: string[] = [];
  for (let i = 0; i < 12; i++) {
    items.push(
      `<li><a href="/static/about.html?n=${i}">${escapeHtml(ARTICLE_TITLES[i % 8])}</a> ` +
        `<span>updated in version ${version}</span></li>`,
    );
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>News</title>` +
    `<link rel="stylesheet" href="/static/style.css"></head><body><h1>Latest news</h1>` +
    `<p class="version">version: ${version}</p><ul>${items.join("")}</ul></body></html>`;
}
