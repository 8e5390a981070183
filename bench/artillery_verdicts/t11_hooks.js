// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

// Reads got's timings as teams do to publish a server time of their own.
function recordTtfb(requestParams, response, context, ee, next) {
  const firstByte = response.timings && response.timings.phases
    ? response.timings.phases.firstByte
    : undefined;
  if (firstByte !== undefined) ee.emit("histogram", "api.ttfb", firstByte);
  ee.emit("counter", response.statusCode === 200 ? "api.ok" : "api.not_ok", 1);
  return next();
}

function pickOrder(context, events, done) {
  context.vars.orderId = 1000 + Math.floor(Math.random() * 9);
  return done();
}

module.exports = { recordTtfb, pickOrder };
