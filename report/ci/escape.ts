/**
 * @module
 * The one escaper of each CI format: markdown cells stay one line with nothing hidden, and XML holds
 * only characters a conforming parser accepts. Pure.
 */
import { terminalSafe, visibleLine } from "../../validation/terminal_text.ts";

/** Markdown-safe text: one line, controls and bidi characters escaped, HTML entities, markdown escaped. */
export function escapeMarkdown(text: string): string {
  return visibleLine(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|#~!])/g, "\\$1");
}

/** What XML 1.0 cannot hold once control characters are gone: its two noncharacters. */
const NOT_XML = /[\ufffe\uffff]/g;

/** XML-safe text: controls and bidi removed, lone surrogates as U+FFFD, the five specials as entities. */
export function escapeXml(text: string): string {
  return terminalSafe(text)
    .toWellFormed()
    .replace(NOT_XML, "")
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&apos;");
}
