// A suite's hooks: tests register callbacks at init; each iteration runs them before its own steps.
const before = [];
let onError = null;
export function beforeEach(fn) {
  before.push(fn);
}
export function whenFailed(fn) {
  onError = fn;
}
export function runBefore() {
  before.forEach((h) => h());
}
export function report(res) {
  if (res.status >= 400 && onError) return onError(res);
  return null;
}
