// deno-lint-ignore-file -- a CommonJS processor as teams write it: unused hook arguments
"use strict";

module.exports = {
  stampUser(context, events, done) {
    context.vars.userId = "u" + Math.floor(Math.random() * 1000);
    return done();
  },
  countEnd(context, events, done) {
    events.emit("counter", "users.ended", 1);
    return done();
  },
  rewrite(requestParams, context, ee, next) {
    requestParams.url = requestParams.url.replace("/old", "/new");
    requestParams.json = { user: context.vars.userId, at: Date.now() };
    requestParams.headers = Object.assign({}, requestParams.headers, { "x-signed": "yes" });
    return next();
  },
  failOdd(context, events, next) {
    context.vars.turn = (context.vars.turn || 0) + 1;
    if (context.vars.$loopCount % 2 === 1) return next(new Error("odd round"));
    return next();
  },
  setFlag(context, events, next) {
    context.vars.flag = true;
    context.vars.pages = (context.vars.pages || 0) + 1;
    return next();
  },
  morePages(context, next) {
    return next((context.vars.pages || 0) < 3);
  },
  isAdmin(context, next) {
    return next(false);
  },
};
