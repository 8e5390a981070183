// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

function morePages(context, next) {
  context.vars.page = (context.vars.page || 0) + 1;
  return next(context.vars.page <= 3);
}

async function asyncSign(requestParams, context, events) {
  await new Promise((r) => setTimeout(r, 2));
  throw new Error("signing service down");
}

async function asyncCheck(requestParams, response, context, events) {
  if (requestParams.url.endsWith("/two")) throw new Error("bad second answer");
}

function explode(context, events, done) {
  throw new Error("boom in a function step");
}

module.exports = { morePages, asyncSign, asyncCheck, explode };
