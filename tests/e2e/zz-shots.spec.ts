import { test } from "@playwright/test";

import { APP_URL, resetSandbox, signIn } from "./support";

test("screens", async ({ browser, page, context }) => {
  await resetSandbox(page);
  const other = await browser.newContext({ userAgent: "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0" });
  await signIn(await other.newPage(), "maya@example.com");
  await signIn(page, "maya@example.com");
  await page.setViewportSize({ width: 320, height: 900 });
  for (const locale of ["en", "zh-TW"]) {
    await context.addCookies([{ name: "locale", value: locale, url: APP_URL }]);
    await page.goto("/settings");
    await page.getByRole("region", { name: locale === "en" ? "Where you're signed in" : "你在哪裡登入" }).scrollIntoViewIfNeeded();
    await page.waitForTimeout(1000);
    await page.getByRole("region", { name: locale === "en" ? "Where you're signed in" : "你在哪裡登入" }).screenshot({ path: `/tmp/shots27/sessions-${locale}.png` });
  }
  await other.close();
});
