// deno-lint-ignore-file -- a processor as teams write it: unused hook arguments, async without await
const { faker } = require("@faker-js/faker");
module.exports = {
  fakeUser(context, events, done) {
    context.vars.email = faker.internet.email();
    done();
  },
};
