/**
 * @module
 * The names a session script records (its requests' names and default `METHOD path` names, its check
 * names, its thrown messages) as results keep them, made once where they are first recorded in the
 * worker: the values of the secrets the script handles redacted (results/redact.ts's token), then one
 * line, controls escaped, bounded in length (validation/shown_name.ts). The secrets are the values of its
 * secret-named environment variables (`s.env`, by results/secret_finder.ts's name rule), of the
 * secret-named headers its requests sent (`Authorization`, `x-api-key`...: known from the first send on)
 * and of the cookies servers set in its jar (from the Set-Cookie on), at most `MAX_SECRETS`, so a token the
 * script puts in a path, a name or a message reaches no output in clear. Names are remembered (short ones, a
 * bounded number), so a request costs one map lookup for its name.
 */
import { credentialForms, knowSecrets, redactKnown, redactShown } from "../../../results/redact.ts";
import { guardConsole } from "../../../system/console_guard.ts";
import { visibleLine } from "../../../validation/terminal_text.ts";
import { isSecretName } from "../../../results/secret_finder.ts";
import { MAX_NAME_CHARS, shownName, shownNameWithin } from "../../../validation/shown_name.ts";

/** Most distinct secret values a worker remembers (per-session tokens past it are not known). */
const MAX_SECRETS = 1_024;
/** Most names remembered, and the longest one remembered (longer ones are made again each time). */
const MAX_REMEMBERED = 4_096;
const REMEMBERED_CHARS = 1_024;

/** A script's place at the end of a line, ` (session.ts:12)`, as module.ts writes it. */
const PLACE_AT_END = / \([^\s()]+:\d+\)$/;

/**
 * What a script prints in this isolate (its console): one line per value, its controls escaped as its
 * names' are, and none of its secret variables (`env`'s secret-named values) nor, once sent, its secret
 * headers' values, as loadlab's own lines. Called before the script loads.
 */
export function guardScriptConsole(env: Readonly<Record<string, string>>): void {
  knowSecrets(
    Object.entries(env).filter(([name]) => isSecretName(name)).map(([name, value]) => [
      value,
      `${name} environment variable`,
    ]),
  );
  guardConsole((text) => visibleLine(redactShown(text)));
}

export class ScriptNames {
  readonly #secrets = new Set<string>();
  /** The secrets' forms, longest first (what `redactKnown` replaces). */
  #forms: string[] = [];
  readonly #shown = new Map<string, string>();

  constructor(env: Readonly<Record<string, string>>) {
    for (const [name, value] of Object.entries(env)) if (isSecretName(name)) this.#add(value);
  }

  /** A request's headers were sent: a secret-named one's value is a secret from now on. */
  sent(headers: ReadonlyArray<readonly [string, string]>): void {
    for (const [name, value] of headers) {
      if (!this.#secrets.has(value) && isSecretName(name)) this.#add(String(value));
    }
  }

  /** `name` as results keep it (see the module comment). */
  shown(name: string): string {
    return this.#remembered(name, () => shownName(this.#redacted(name)));
  }

  /**
   * A thrown message as results keep it, with the script's place after it (`message (file:line)`): the
   * message is cut to leave the place whole, where cutting the line as a whole lost the place of any
   * message past the length names keep.
   */
  shownError(message: string, where: string | null): string {
    const room = where === null ? 0 : MAX_NAME_CHARS - where.length - 3;
    if (where === null || room < 64) return this.shown(where === null ? message : `${message} (${where})`);
    return this.#remembered(
      `${message} (${where})`,
      () => shownName(`${shownNameWithin(this.#redacted(message), room)} (${where})`),
    );
  }

  /**
   * A line that ends in the script's place (`setup() failed: message (file:line)`, as its isolate reports
   * a throw), then `after`: cut before the place as `shownError` cuts, where cutting it whole lost the
   * place and `after` (a setup() that threw a long body read with neither its line nor "no load was sent").
   */
  shownPlaced(text: string, after = ""): string {
    const redacted = this.#redacted(text);
    const place = PLACE_AT_END.exec(redacted);
    const tail = (place === null ? "" : place[0]) + after;
    const room = MAX_NAME_CHARS - tail.length;
    if (room < 64) return shownName(redacted + after);
    return shownName(
      shownNameWithin(place === null ? redacted : redacted.slice(0, place.index), room) + tail,
    );
  }

  #redacted(text: string): string {
    return this.#forms.length > 0 ? redactKnown(text, this.#forms) : text;
  }

  /** What `make` gives for `name`, remembered for short names (a bounded number of them). */
  #remembered(name: string, make: () => string): string {
    const known = this.#shown.get(name);
    if (known !== undefined) return known;
    const out = make();
    if (name.length <= REMEMBERED_CHARS && this.#shown.size < MAX_REMEMBERED) this.#shown.set(name, out);
    return out;
  }

  #add(value: string): void {
    if (this.#secrets.size >= MAX_SECRETS) return;
    this.#secrets.add(value);
    const forms = credentialForms(value).filter((f) => !this.#forms.includes(f));
    if (forms.length === 0) return;
    // Known to the isolate's other outputs too: its console, and in loadlab's own one every file and line.
    knowSecrets(forms.map((form) => [form, "script's secret variable or header"]));
    this.#forms = [...this.#forms, ...forms].sort((a, b) => b.length - a.length);
    // Names made before this secret was known are made again.
    this.#shown.clear();
  }
}
