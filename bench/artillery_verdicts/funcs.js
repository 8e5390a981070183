module.exports = {
  signRequest(req, context, ee, next) {
    req.headers = { ...(req.headers || {}), "x-signature": "s" + Date.now() };
    return next();
  },
};
