import { expect, test, type Page } from "./test";

import { accountNavigation } from "./account-menu";
import { APP_URL, chooseLanguage, resetSandbox, signIn } from "./support";

/*
 * The dashboard's own rate limits as a student meets them (lib/http/rate-limit.ts; RATE_LIMIT_PER_SESSION
 * is 20 a minute by default): past the limit a sign-in ends on the sign-in problem page, never on a page of
 * JSON, and Sign out says why it failed; both say how long to wait, in the member's language.
 */

const PER_SESSION_LIMIT = 20;

/** Uses up this session's allowance of the sign-in machinery within the current minute. */
async function useUpSessionAllowance(page: Page, path: "/api/auth/login" | "/api/auth/logout"): Promise<void> {
  for (let request = 0; request < PER_SESSION_LIMIT; request += 1) {
    // Sign-in answers with its redirect to the site; a sign-out without the dashboard's Origin is refused. Each counts.
    const response =
      path === "/api/auth/login"
        ? await page.request.get(`${APP_URL}${path}`, { maxRedirects: 0 })
        : await page.request.post(`${APP_URL}${path}`, { maxRedirects: 0 });
    expect(response.status(), `request ${request + 1}`).not.toBe(429);
  }
}

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
  await signIn(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Maya");
});

test("past the limit, Sign in again ends on a page that says how long to wait, in English and 繁體中文", async ({ page }) => {
  await useUpSessionAllowance(page, "/api/auth/login");
  await page.goto("/api/auth/login?returnTo=%2Fcourses");
  await expect(page).toHaveURL(/\/sign-in-problem\?code=rate_limited&detail=session&retryAfter=\d+$/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign-in did not complete" })).toBeVisible();
  // The page's own alert (Next.js's route announcer is one too, empty).
  const problem = page.getByRole("alert").filter({ hasText: /\S/ });
  await expect(problem).toHaveText(/^Too many sign-in attempts from here\. Please try again in \d{1,2}\u00a0seconds\.$/);
  await expect(page.getByRole("link", { name: "Try signing in again" })).toBeVisible();
  // No JSON, no code of ours but the reference.
  await expect(page.locator("body")).not.toContainText("{");

  await chooseLanguage(page.context(), "zh-TW");
  await page.reload();
  await expect(page.getByRole("heading", { level: 1, name: "登入未完成" })).toBeVisible();
  await expect(problem).toHaveText(/^這裡的登入嘗試次數過多，請於 \d{1,2}\u00a0秒後再試。$/);
});

test("past the limit, Sign out says it could not sign out and how long to wait; the member stays signed in", async ({ page }) => {
  await useUpSessionAllowance(page, "/api/auth/logout");
  const account = accountNavigation(page);
  await account.getByRole("button", { name: "Maya Chen" }).click();
  await account.getByRole("button", { name: "Sign out", exact: true }).click();
  await expect(page.getByRole("alert").filter({ hasText: "You could not be signed out." })).toHaveText(
    /You could not be signed out\. Too many attempts from here\. Please try again in \d{1,2}\u00a0seconds\./,
  );
  expect((await page.request.get(`${APP_URL}/api/session`)).status()).toBe(200);
});
