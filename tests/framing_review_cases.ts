/**
 * @module
 * A second, independent table of HTTP/1.1 response framing cases, written from RFC 9112 (2.2, 2.3, 4, 5,
 * 6, 7, 9.3, 9.6) and RFC 9110 (5.1, 5.5, 5.6, 6.4.1, 8.6, 15) and from how robust clients (llhttp as in
 * Node, hyper, h11, curl) frame responses, without looking at the first table: valid shapes, malformed
 * ones, and a response cut short (EOF) in each state. Each case names the section its expectation comes
 * from; `fixed:` marks a disagreement this table found and the framing module now follows. The cases live
 * in one file per theme (framing_review_*.ts); this is the whole table, theme after theme.
 */
import type { FramingCase } from "./framing_cases.ts";
import { CHUNKED_CASES } from "./framing_review_chunked.ts";
import { CUT_SHORT_CASES } from "./framing_review_eof.ts";
import { FIELD_CASES } from "./framing_review_fields.ts";
import { HEAD_CASES } from "./framing_review_heads.ts";
import { LENGTH_CASES } from "./framing_review_length.ts";

export const REVIEW_CASES: FramingCase[] = [
  ...HEAD_CASES,
  ...FIELD_CASES,
  ...LENGTH_CASES,
  ...CHUNKED_CASES,
  ...CUT_SHORT_CASES,
];
