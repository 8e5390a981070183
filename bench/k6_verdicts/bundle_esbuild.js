// args: -i 2
// An esbuild bundle (--format=cjs, k6 modules external): module.exports through __toCommonJS.
// As the bundler wrote it: deno fmt and lint leave it so.
// deno-fmt-ignore-file
// deno-lint-ignore-file
var __create = Object.create;
var __defProp = Object.defineProperty;
var __getOwnPropDesc = Object.getOwnPropertyDescriptor;
var __getOwnPropNames = Object.getOwnPropertyNames;
var __getProtoOf = Object.getPrototypeOf;
var __hasOwnProp = Object.prototype.hasOwnProperty;
var __export = (target, all) => {
  for (var name in all)
    __defProp(target, name, { get: all[name], enumerable: true });
};
var __copyProps = (to, from, except, desc) => {
  if (from && typeof from === "object" || typeof from === "function") {
    for (let key of __getOwnPropNames(from))
      if (!__hasOwnProp.call(to, key) && key !== except)
        __defProp(to, key, { get: () => from[key], enumerable: !(desc = __getOwnPropDesc(from, key)) || desc.enumerable });
  }
  return to;
};
var __toESM = (mod, isNodeMode, target) => (target = mod != null ? __create(__getProtoOf(mod)) : {}, __copyProps(
  // If the importer is in node compatibility mode or this is not an ESM
  // file that has been converted to a CommonJS file using a Babel-
  // compatible transform (i.e. "__esModule" has not been set), then set
  // "default" to the CommonJS "module.exports" for node compatibility.
  isNodeMode || !mod || !mod.__esModule ? __defProp(target, "default", { value: mod, enumerable: true }) : target,
  mod
));
var __toCommonJS = (mod) => __copyProps(__defProp({}, "__esModule", { value: true }), mod);

// src/test.ts
var test_exports = {};
__export(test_exports, {
  default: () => test_default,
  options: () => options
});
module.exports = __toCommonJS(test_exports);
var import_http = __toESM(require("k6/http"));

// src/helper.ts
var import_k6 = require("k6");
function expectOk(res, name) {
  return (0, import_k6.check)(res, { [name]: (r) => r.status === 200 });
}

// src/test.ts
var BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";
var options = {
  thresholds: { http_reqs: ["count==2"], checks: ["rate==1"] }
};
function test_default() {
  expectOk(import_http.default.get(`${BASE}/json`), "bundled ok");
}
