/**
 * @module
 * k6's URL library (`https://jslib.k6.io/url/<version>/index.js`), served locally: k6's interpreter has no
 * `URL`, so scripts import the WHATWG one from jslib; loadlab's isolates have it built in, and this is it.
 */
const { URL, URLSearchParams } = globalThis;

export { URL, URLSearchParams };
export default { URL, URLSearchParams };
