module.exports = {
  signRequest(req, _context, _events, next) {
    req.headers = { ...(req.headers || {}), "x-signature": "s" + Date.now() };
    return next();
  },
  setUser(context, _events, next) {
    context.vars.user = "u1";
    return next();
  },
};
