// args: -i 1
// k6/browser: a page opened in a browser; loadlab sends HTTP only and refuses it before the load.
import { browser } from "k6/browser";
import { check } from "k6";

const BASE = __ENV.BASE_URL || "http://127.0.0.1:18481";

export const options = {
  scenarios: { ui: { executor: "shared-iterations", options: { browser: { type: "chromium" } } } },
};

export default async function () {
  const page = await browser.newPage();
  try {
    await page.goto(`${BASE}/get`);
    check(await page.content(), { "page has args": (html) => html.includes("args") });
  } finally {
    await page.close();
  }
}
