/**
 * @module
 * The one escaper of each CI format (report/ci/summary.ts): markdown for step summaries and XML for
 * JUnit. Everything they embed comes from outside (an experiment's description, names, threshold
 * expressions, a results file someone edited), so each escaper decides alone what reaches the file: a
 * markdown cell or line stays one line with nothing hidden, and XML holds only characters a conforming
 * parser accepts (it stops at the first other one, and CI tools then drop the whole report). Pure.
 */
import { terminalSafe, visibleLine } from "../../validation/terminal_text.ts";

/**
 * Markdown-safe text for a table cell or a line: one line (CR, LF, U+0085 and U+2028 would end a row or
 * start a forged one), each control, escape-sequence or bidi character as its escape (GitHub shows a step
 * summary as it is, so U+202E would reverse what it seems to say), HTML entities (summaries render inline
 * HTML), and markdown's punctuation escaped.
 */
export function escapeMarkdown(text: string): string {
  return visibleLine(text)
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/([\\`*_[\]|#~!])/g, "\\$1");
}

/** What XML 1.0 cannot hold once control characters are gone: its two noncharacters. */
const NOT_XML = /[\ufffe\uffff]/g;

/**
 * XML-safe text for element content and attribute values: escape sequences, controls and bidi overrides
 * removed (tab and LF stay), a lone surrogate (half of a pair, which no encoding can write) made U+FFFD,
 * U+FFFE and U+FFFF removed, and the five special characters as entities (so `]]>` is `]]&gt;`).
 */
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
