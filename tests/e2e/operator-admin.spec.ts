import { expect, test, type Page } from "./test";

import { expectNoSeriousAxeViolations, resetSandbox, SITE_URL } from "./support";

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

// Other journeys share the sandbox: leave the beta off and no application behind.
test.afterEach(async ({ page }) => {
  await resetSandbox(page);
});

async function signInAtSite(page: Page, email: string): Promise<void> {
  await page.goto(`${SITE_URL}/admin`);
  await expect(page).toHaveURL(new RegExp(`^${SITE_URL}/sign-in`));
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill("demo");
  await page.getByRole("button", { name: "Sign in" }).click();
}

test("the operator turns on MCP connections and creates, sees and deletes an OAuth application", async ({ page }) => {
  await signInAtSite(page, "olivia@example.com");
  await expect(page).toHaveURL(`${SITE_URL}/admin`);
  await expect(page.getByRole("heading", { level: 1, name: "Demo Academy admin" })).toBeVisible();
  const adminNav = page.getByRole("navigation", { name: "Admin" });
  await expect(adminNav.getByRole("link", { name: "Developers" })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  // The Developers pages do not exist until the beta is on.
  const hidden = await page.request.get(`${SITE_URL}/admin/developers/oauth-applications`);
  expect(hidden.status()).toBe(404);

  await page.getByLabel("MCP connections").check();
  await page.getByRole("button", { name: "Save beta settings" }).click();
  await expect(page.getByRole("status")).toContainText("MCP connections is on");
  await expect(page.getByLabel("MCP connections")).toBeChecked();

  await adminNav.getByRole("link", { name: "Developers" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Developers" })).toBeVisible();
  await expect(page.getByText(`${SITE_URL}/mcp`)).toBeVisible();
  await page.getByRole("link", { name: "Manage OAuth applications" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "OAuth applications" })).toBeVisible();
  await expect(page.getByText("No OAuth applications yet.")).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByLabel("Name", { exact: true }).fill("Study buddy");
  await page.getByLabel("Redirect URIs").fill("https://buddy.example.com/callback\nhttp://127.0.0.1:7777/callback");
  await expect(page.getByLabel(/^account:read/)).toBeChecked();
  await page.getByLabel(/^Confidential/).check();
  await page.getByRole("button", { name: "Create application" }).click();

  await expect(page.getByRole("heading", { level: 1, name: "Application created" })).toBeVisible();
  const clientId = await page.getByLabel("Client ID", { exact: true }).inputValue();
  const clientSecret = await page.getByLabel("Client secret", { exact: true }).inputValue();
  expect(clientId).toMatch(/^app_[0-9a-f]{24}$/);
  expect(clientSecret).toMatch(/^sks_/);
  await expect(page.getByText("it is shown only this once")).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  await page.getByRole("link", { name: "Back to OAuth applications" }).click();
  const row = page.getByRole("row", { name: /Study buddy/ });
  await expect(row).toContainText(clientId);
  await expect(row).toContainText("Confidential");
  // The secret is never shown again.
  expect(await page.content()).not.toContain(clientSecret);
  await page.reload();
  expect(await page.content()).not.toContain(clientSecret);

  await row.getByRole("button", { name: "Delete Study buddy" }).click();
  await expect(page.getByRole("status")).toContainText("Deleted Study buddy");
  await expect(page.getByRole("row", { name: /Study buddy/ })).toHaveCount(0);
  await expect(page.getByText("No OAuth applications yet.")).toBeVisible();
});

test("a student who opens the site's admin area is told it is for admins only", async ({ page }) => {
  await signInAtSite(page, "maya@example.com");
  await expect(page.getByRole("heading", { level: 1, name: "Admins only" })).toBeVisible();
  await expect(page.getByRole("alert")).toContainText("Only the site's owner or administrators can open the admin area");
  await expect(page.getByRole("button", { name: "Sign out" })).toBeVisible();
});
