// A library module keeping state in its own scope: a call counter, a token cache and a list of pages seen.
let calls = 0;
let cachedToken = null;
export const seen = [];

export function nextCall() {
  calls++;
  return calls;
}

export function token() {
  return cachedToken;
}

export function keepToken(value) {
  cachedToken = value;
}
