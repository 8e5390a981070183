/**
 * @module
 * Field lines (RFC 9112 5) scanned byte by byte: a token name to its colon, a value of HTAB, SP, VCHAR and
 * obs-text. An obs-fold joins the field before it unless the head is forwarded `verbatim`.
 */
import {
  FIELD_NONE,
  FIELD_OTHER,
  FIELD_SET_COOKIE,
  FRAMING_NAMES,
  framingNameAt,
  matched,
  narrowRange,
  TCHAR,
} from "./chars.ts";
import { FramingFields, isFramingField } from "./framing_fields.ts";

const SP = 32, HTAB = 9, COLON = 58;
/** Every framing name can still match (a bit per FRAMING_NAMES entry). */
const ANY_FRAMING_NAME = (1 << FRAMING_NAMES.length) - 1;
/** Returned by `name` and `value` for bytes that break the rules; `error` says which. */
export const BAD_FIELD_LINE = -2;

/** The field lines of one head, then of its trailers; `reset()` before each head. */
export class FieldLines {
  readonly facts = new FramingFields();
  error = "";
  readonly #verbatim: boolean;
  #field = FIELD_NONE;
  #inTrailers = false;
  #at = 0;
  #mask = 0;

  /** `verbatim`: the head is forwarded as it is, so an obs-fold (which needs a rewrite) is an error. */
  constructor(verbatim: boolean) {
    this.#verbatim = verbatim;
  }

  get inTrailers(): boolean {
    return this.#inTrailers;
  }

  reset(): void {
    this.#field = FIELD_NONE;
    this.#inTrailers = false;
    this.facts.reset();
  }

  /** Trailer field lines follow, whose names decide nothing. */
  startTrailers(): void {
    this.#field = FIELD_NONE;
    this.#inTrailers = true;
  }

  /** An obs-fold continues the previous field's value. */
  fold(): boolean {
    if (this.#field === FIELD_NONE) return this.#refuse("whitespace before the first header line");
    if (this.#verbatim) return this.#refuse("obs-fold header line");
    if (isFramingField(this.#field) && !this.facts.byte(SP)) return this.#refuse(this.facts.error);
    return true;
  }

  /** Byte `c` starts a name: the previous field ends. */
  startName(c: number): boolean {
    if (!this.endField()) return false;
    if (TCHAR[c] !== 1) return this.#refuse("bad header name");
    this.#at = 0;
    this.#mask = this.#inTrailers ? 0 : ANY_FRAMING_NAME;
    return true;
  }

  /** Name bytes in buf[i, stop): the index of the colon, `stop` to go on, or BAD_FIELD_LINE. */
  name(buf: Uint8Array, i: number, stop: number): number {
    const from = i;
    let c = 0;
    while (i < stop && TCHAR[c = buf[i]] === 1) i++;
    const at = this.#at + i - from;
    if (i === stop) {
      // The name goes on in the next read: keep which framing names it can still be.
      this.#mask = narrowRange(buf, from, i, this.#at, this.#mask);
      this.#at = at;
      return i;
    }
    if (c !== COLON) return this.#fail("bad header name");
    const field = this.#mask === 0 ? -1 : this.#at === 0
      ? framingNameAt(buf, from, at) // the common case: the whole name is in this read
      : matched(FRAMING_NAMES, narrowRange(buf, from, i, this.#at, this.#mask), at);
    this.#field = field < 0 || field === FIELD_SET_COOKIE ? FIELD_OTHER : field;
    if (field >= 0) this.facts.begin(field);
    return i;
  }

  /** Value bytes in buf[i, stop): the first byte past the value, `stop` to go on, or BAD_FIELD_LINE. */
  value(buf: Uint8Array, i: number, stop: number): number {
    let c = 0;
    if (this.#field === FIELD_OTHER) {
      while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) i++;
      return i;
    }
    while (i < stop && ((c = buf[i]) >= 32 ? c !== 127 : c === HTAB)) {
      if (!this.facts.byte(c)) return this.#fail(this.facts.error);
      i++;
    }
    return i;
  }

  endField(): boolean {
    const field = this.#field;
    if (field === FIELD_NONE) return true;
    this.#field = FIELD_OTHER;
    if (isFramingField(field) && !this.facts.end()) return this.#refuse(this.facts.error);
    return true;
  }

  #refuse(message: string): boolean {
    this.error = message;
    return false;
  }

  #fail(message: string): number {
    this.error = message;
    return BAD_FIELD_LINE;
  }
}
