/**
 * @module
 * k6's URL library (jslib's url), served locally: loadlab's isolates have the WHATWG `URL` built in.
 */
const { URL, URLSearchParams } = globalThis;

export { URL, URLSearchParams };
export default { URL, URLSearchParams };
