// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

function readRequestId(requestParams, response, context, ee, next) {
  const id = response.headers["x-request-id"];
  context.vars.lastRequestId = id || "none";
  if (id) ee.emit("counter", "items.with_request_id", 1);
  ee.emit("counter", "items.created", 1);
  ee.emit("histogram", "item.id", JSON.parse(response.body).id);
  return next();
}

function startClock(context, events, done) {
  context.vars.startedAt = Date.now();
  return done();
}

function stopClock(requestParams, response, context, ee, next) {
  ee.emit("histogram", "checkout.latency", Date.now() - context.vars.startedAt);
  ee.emit("rate", "checkout.rate");
  return next();
}

module.exports = { readRequestId, startClock, stopClock };
