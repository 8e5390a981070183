// deno-lint-ignore-file -- an ESM processor as teams write it: unused hook arguments
export async function loadToken(context, events) {
  await new Promise((r) => setTimeout(r, 5));
  context.vars.token = "tok-" + context.vars.$uuid;
}

export async function explode(requestParams, context, events) {
  await new Promise((r) => setTimeout(r, 1));
  throw new Error("signing service down");
}
