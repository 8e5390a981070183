// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

// Reads a field the app's answer lacks, as a team's hook does against another build: it throws.
function readQuestions(requestParams, response, context, ee, next) {
  const body = JSON.parse(response.body);
  context.vars.first = body.questions[0].id;
  return next();
}

// Signs each request; throws when no key was set, as a half-configured CI run would.
function signRequest(requestParams, context, ee, next) {
  if (!context.vars.apiKey) throw new Error("no api key");
  requestParams.headers = Object.assign({}, requestParams.headers, { "x-sig": context.vars.apiKey });
  return next();
}

function setKey(context, events, done) {
  context.vars.apiKey = "k-" + context.vars.$uuid.slice(0, 4);
  return done();
}

function startScenario(context, events, done) {
  throw new TypeError("Cannot read properties of undefined (reading 'token')");
}

// Refuses the request by next(err): the user fails there.
function refuseWrite(requestParams, context, ee, next) {
  if (requestParams.url.includes("/admin")) return next(new Error("writes are frozen"));
  return next();
}

async function asyncLookup(context, events) {
  await new Promise((r) => setTimeout(r, 5));
  if (context.vars.$loopCount === 1) throw new Error("lookup failed");
  context.vars.found = "yes";
}

function countResponse(requestParams, response, context, ee, next) {
  ee.emit("counter", "app.responses." + response.statusCode, 1);
  ee.emit("histogram", "app.body_bytes", response.body.length);
  return next();
}

function pagesLeft(context, next) {
  context.vars.page = (context.vars.page || 0) + 1;
  return next(context.vars.page < 4);
}

function isEven(context, next) {
  return next(context.vars.n % 2 === 0);
}

function pickN(context, events, done) {
  context.vars.n = Math.floor(Math.random() * 1000);
  return done();
}

module.exports = {
  readQuestions,
  signRequest,
  setKey,
  startScenario,
  refuseWrite,
  asyncLookup,
  countResponse,
  pagesLeft,
  isEven,
  pickN,
};
