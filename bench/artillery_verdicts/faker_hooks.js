const { faker } = require("@faker-js/faker");
module.exports = {
  fakeUser(context, events, done) {
    context.vars.email = faker.internet.email();
    done();
  },
};
