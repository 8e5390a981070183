// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments
exports.setBody = function (req, ctx, ee, next) {
  req.body = JSON.stringify({ n: 1 });
  req.headers = { "content-type": "application/json" };
  next();
};

exports.rewrite = function (req, ctx, ee, next) {
  req.url = "/rewritten";
  next();
};

module.exports.checkCreated = async function (req, res, ctx) {
  if (res.statusCode !== 201) throw new Error(`not created: ${res.statusCode}`);
  ctx.vars.created = true;
};
