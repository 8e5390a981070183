module.exports = {
  signRequest(req, _context, _events, next) {
    req.headers = { ...(req.headers || {}), "x-signature": "s" + Date.now() };
    return next();
  },
  setUser(context, _events, next) {
    context.vars.user = "u1";
    return next();
  },
  addOrderBody(req, context, _events, next) {
    req.json = { sku: "A1", qty: 2, user: context.vars.user || "anon" };
    return next();
  },
  keepToken(_req, res, context, _events, next) {
    context.vars.token = JSON.parse(res.body).token;
    return next();
  },
  pickTenant(context, _events, next) {
    context.vars.tenant = "t" + (1 + Math.floor(Math.random() * 3));
    return next();
  },
  logDone(_context, _events, next) {
    return next();
  },
};
