// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

function pickUser(context, events, done) {
  context.vars.userId = 40 + Math.floor(Math.random() * 10);
  return done();
}

function signOrder(requestParams, context, ee, next) {
  requestParams.json = { ...requestParams.json, user: context.vars.userId, signed: true };
  requestParams.headers = { ...requestParams.headers, "x-signature": "sig-" + context.vars.userId };
  return next();
}

function keepToken(requestParams, response, context, ee, next) {
  const body = JSON.parse(response.body);
  context.vars.token = body.token;
  context.vars.orderPath = body.path;
  ee.emit("counter", "orders.placed", 1);
  ee.emit("histogram", "orders.status", response.statusCode);
  return next();
}

function checkToken(context, events, done) {
  if (context.vars.token !== "abc123") return done(new Error("token missing"));
  return done();
}

function audit(context, events, done) {
  events.emit("counter", "sessions.audited", 1);
  return done();
}

function failOdd(context, events, done) {
  return context.vars.userId % 2 === 1 ? done(new Error("odd user")) : done();
}

function moreFeed(context, next) {
  return next(context.vars.$loopCount < 3);
}

module.exports = { pickUser, signOrder, keepToken, checkToken, audit, failOdd, moreFeed };
