// args: -i 1
// k6/experimental/browser, which k6 v1 calls k6/browser.
import { browser } from "k6/experimental/browser";

export default async function () {
  const page = await browser.newPage();
  await page.close();
}
