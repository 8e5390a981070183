// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments, async without await
"use strict";
const crypto = require("crypto");
const fs = require("fs");
const path = require("path");
const util = require("util");

const users = fs.readFileSync(path.join(__dirname, "users.csv"), "utf8").trim().split("\n").slice(1);

function setAuth(requestParams, context, ee, next) {
  requestParams.headers = requestParams.headers || {};
  requestParams.headers.authorization = `Bearer ${context.vars.token}`;
  return next();
}

function signBody(requestParams, context, ee, next) {
  const body = JSON.stringify(requestParams.json || {});
  requestParams.headers = Object.assign({}, requestParams.headers, {
    "x-signature": crypto.createHmac("sha256", "s3cret").update(body).digest("hex"),
  });
  next();
}

async function fetchTenant(requestParams, context) {
  await new Promise((r) => setTimeout(r, 5));
  requestParams.url = requestParams.url.replace("TENANT", context.vars.tenant || "t0");
}

function pickUser(context, events, done) {
  const [name] = users[Math.floor(Math.random() * users.length)].split(",");
  context.vars.name = name;
  context.vars.tenant = "t" + (name.length % 3);
  events.emit("counter", "users.picked", 1);
  return done();
}

async function buildOrder(context, events) {
  context.vars.order = { sku: util.format("SKU-%d", 42), qty: 2, user: context.vars.name };
  events.emit("histogram", "order.qty", 2);
}

function rememberItem(requestParams, response, context, ee, next) {
  const body = JSON.parse(response.body);
  context.vars.items = (context.vars.items || []).concat(body.id);
  ee.emit("rate", "items.made");
  return next();
}

function failOnStatus(requestParams, response, context, ee, next) {
  if (response.statusCode >= 500) return next(new Error(`upstream ${response.statusCode}`));
  return next();
}

function morePages(context, next) {
  return next(context.vars.$loopCount < 3);
}

function hasToken(vars) {
  return vars.token === "abc123";
}

function notAdmin(vars) {
  return vars.role === "admin";
}

function setRegion(context, events, done) {
  context.vars.region = "eu";
  done();
}

function logResponse(requestParams, response, context, ee, next) {
  context.vars.lastStatus = response.statusCode;
  context.vars.lastType = response.headers["content-type"];
  next();
}

module.exports = {
  setAuth,
  signBody,
  fetchTenant,
  pickUser,
  buildOrder,
  rememberItem,
  failOnStatus,
  morePages,
  hasToken,
  notAdmin,
  logResponse,
  setRegion,
};
