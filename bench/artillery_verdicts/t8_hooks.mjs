// deno-lint-ignore-file -- an ESM processor as teams write it: unused hook arguments
export async function loadProfile(context, events) {
  await new Promise((resolve) => setTimeout(resolve, 5));
  context.vars.profile = { name: "ada", roles: ["admin", "ops"] };
}

export async function addTrace(requestParams, context, events) {
  requestParams.headers = { ...requestParams.headers, "x-trace": `t-${context.vars.profile.name}` };
}

export async function readBody(requestParams, response, context, events) {
  context.vars.seenPath = JSON.parse(response.body).path;
  events.emit("counter", "profile.reads", 1);
}
