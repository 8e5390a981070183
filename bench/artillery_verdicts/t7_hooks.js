// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
"use strict";

function countCart(context, events, done) {
  context.vars.cartSize = 3;
  events.emit("counter", "cart.opened", 1);
  events.emit("histogram", "cart.size", context.vars.cartSize);
  return done();
}

function timeCheckout(requestParams, response, context, ee, next) {
  ee.emit("rate", "checkout.rate");
  ee.emit("counter", "checkout.status." + response.statusCode, 1);
  return next();
}

module.exports = { countCart, timeCheckout };
