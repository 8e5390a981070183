/**
 * @module
 * The names a session script records as results keep them: its secrets redacted (secret-named env values,
 * secret headers once sent, cookies servers set), one line, bounded; remembered, one map lookup a request.
 */
import { credentialForms, knowSecrets, redactKnown, redactShown } from "../../../results/redact.ts";
import { guardConsole } from "../../../system/console_guard.ts";
import { visibleLine } from "../../../validation/terminal_text.ts";
import { isSecretName, isSecretVariable } from "../../../results/secret_finder.ts";
import { MAX_NAME_CHARS, shownName, shownNameWithin } from "../../../validation/shown_name.ts";
import { scriptEnv } from "../isolate_inputs.ts";

/** Most distinct secret values a worker remembers (per-session tokens past it are not known). */
const MAX_SECRETS = 1_024;
/** Most names remembered, and the longest one remembered (longer ones are made again each time). */
const MAX_REMEMBERED = 4_096;
const REMEMBERED_CHARS = 1_024;

const PLACE_AT_END = / \([^\s()]+:\d+\)$/;

/** What a script prints in this isolate: one line per value, controls escaped and its secrets redacted. */
export function guardScriptConsole(env: Readonly<Record<string, string>> = scriptEnv()): void {
  knowSecrets(
    Object.entries(env).filter(([name]) => isSecretVariable(name)).map(([name, value]) => [
      value,
      `${name} environment variable`,
    ]),
  );
  guardConsole((text) => visibleLine(redactShown(text)));
}

export class ScriptNames {
  readonly #secrets = new Set<string>();
  #forms: string[] = [];
  readonly #shown = new Map<string, string>();

  constructor(env: Readonly<Record<string, string>> = scriptEnv()) {
    for (const [name, value] of Object.entries(env)) if (isSecretVariable(name)) this.#add(value);
  }

  sent(headers: ReadonlyArray<readonly [string, string]>): void {
    for (const [name, value] of headers) {
      if (!this.#secrets.has(value) && isSecretName(name)) this.#add(String(value));
    }
  }

  shown(name: string): string {
    return this.#shown.get(name) ?? this.#remember(name, shownName(this.#redacted(name)));
  }

  /** A thrown message with the script's place after it (`message (file:line)`), cut to keep the place. */
  shownError(message: string, where: string | null): string {
    if (where === null) return this.shown(message);
    const key = `${message} (${where})`;
    return this.#shown.get(key) ?? this.#remember(key, this.shownPlaced(key));
  }

  /** A line that ends in the script's place, then `after`: cut before the place as `shownError` cuts. */
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

  #remember(name: string, out: string): string {
    if (name.length <= REMEMBERED_CHARS && this.#shown.size < MAX_REMEMBERED) this.#shown.set(name, out);
    return out;
  }

  #add(value: string): void {
    if (this.#secrets.size >= MAX_SECRETS) return;
    this.#secrets.add(value);
    const forms = credentialForms(value).filter((f) => !this.#forms.includes(f));
    if (forms.length === 0) return;
    knowSecrets(forms.map((form) => [form, "script's secret variable or header"]));
    this.#forms = [...this.#forms, ...forms].sort((a, b) => b.length - a.length);
    // Names made before this secret was known are made again.
    this.#shown.clear();
  }
}
