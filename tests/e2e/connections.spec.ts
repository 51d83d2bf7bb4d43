import { expect, test, type BrowserContext, type Page } from "./test";

import { openSettingsFromMenu } from "./account-menu";
import {
  breaksInsideUrlParts,
  chooseLanguage,
  cutOffIn,
  expectNoSeriousAxeViolations,
  postSandboxControl,
  resetSandbox,
  screenshotPage,
  shownLines,
  signIn,
  SITE_URL,
} from "./support";

const MCP_URL = `${SITE_URL}/mcp`;

/** What the panel says when the clipboard refuses, on a device with a keyboard and on one held in the hand. */
const COPY_BY_KEYBOARD = {
  en: "Your browser did not allow copying. The address is selected: press Ctrl+C (⌘C on a Mac).",
  "zh-TW": "你的瀏覽器不允許複製。網址已選取，請按 Ctrl+C（Mac 請按 ⌘C）複製。",
};
const COPY_BY_TOUCH = {
  en:
    "Your browser did not allow copying. The address is selected: choose Copy in the menu that appears. " +
    "If no menu appears, touch and hold the address, then choose Copy.",
  "zh-TW": "你的瀏覽器不允許複製。網址已選取，請在出現的選單中點選「複製」（iPhone 為「拷貝」）；沒有看到選單時，請長按網址。",
};

/** The words a student finds the panel's disclosure, field and Copy button by. */
const PANEL_WORDS = {
  en: { open: "Connect an AI assistant (beta)", url: "MCP URL", copy: "Copy MCP URL" },
  "zh-TW": { open: "連接 AI 助理（測試版）", url: "MCP 網址", copy: "複製 MCP 網址" },
};

test.beforeEach(async ({ page }) => {
  await resetSandbox(page);
});

async function openSettings(page: Page): Promise<void> {
  await openSettingsFromMenu(page);
}

test("Settings tells the member what an AI assistant can do for them, and how to connect it", async ({ page, context }) => {
  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  await signIn(page, "maya@example.com");
  await openSettings(page);

  // Collapsed by default: a student opens it when they want it. Its summary drops the browser's marker
  // (inline-flex): an arrow says that it opens, as beside "Details" (else it reads as an empty card).
  const panel = page.getByRole("region", { name: "AI assistants" });
  await expect(panel).toBeHidden();
  // (A summary has no ARIA role Playwright can name.)
  for (const words of ["Connect an AI assistant (beta)", "Details"]) {
    const summary = page.getByRole("main").locator("summary").filter({ hasText: words });
    await expect(summary).toHaveCount(1);
    await expect(summary.locator('svg[data-mark="chevronRight"]')).toBeVisible();
  }
  // Its title is a heading of the page's outline, so the panel's own headings sit under it.
  const title = page.getByRole("heading", { level: 2, name: "Connect an AI assistant (beta)" });
  await expect(title).toBeVisible();
  await title.click();
  await expect(panel.getByText("Demo Academy", { exact: false }).first()).toBeVisible();
  const outline = await page
    .getByRole("main")
    .getByRole("heading")
    .evaluateAll((headings) => headings.map((h) => `${h.tagName} ${h.textContent}`));
  expect(
    outline.slice(outline.indexOf("H2 Connect an AI assistant (beta)"), outline.indexOf("H2 Connect an AI assistant (beta)") + 4),
  ).toEqual(["H2 Connect an AI assistant (beta)", "H3 For you", "H3 From the catalog", "H3 How to connect"]);
  await expect(panel.getByText("Demo Academy, version 1.0.0")).toBeVisible();

  // The member's own tools, described in words, apart from the public catalog's.
  const forYou = panel.getByRole("region", { name: "For you" });
  await expect(forYou.getByText("List my orders")).toBeVisible();
  await expect(forYou.getByText(/orders, newest last, with their state/)).toBeVisible();
  await expect(forYou.getByRole("listitem")).toHaveCount(3);
  const catalog = panel.getByRole("region", { name: "From the catalog" });
  await expect(catalog.getByText("Search courses")).toBeVisible();
  await expect(catalog.getByRole("listitem")).toHaveCount(3);

  // The URL to paste, and a Copy button that copies it and says so.
  await expect(panel.getByRole("textbox", { name: "MCP URL" })).toHaveValue(MCP_URL);
  // Where the assistant will have the member sign in: the site, by its name (not the MCP server's "Demo Academy").
  await expect(panel.getByText(/sign in to Demo Academy \(sandbox\) and approve access/)).toBeVisible();
  const copy = panel.getByRole("button", { name: "Copy MCP URL" });
  await expect(copy).toBeVisible();
  await expectNoSeriousAxeViolations(page);
  // The panel's heading at the top, below the sticky navigation.
  await page.getByText("Connect an AI assistant (beta)").evaluate((heading) => {
    heading.scrollIntoView({ block: "start" });
    window.scrollBy(0, -96);
  });
  await screenshotPage(page, "settings-connections");
  // On a 320 px phone too, the whole URL shows (Copy moves below it), and nothing is cut or sticks out. Were
  // it to take two lines, it would go on after a "/" or a ".", or before the port's ":", never inside a
  // number of the host or the port ("http://127" / ".0.0.1"); it fits on one line here, and takes two in the
  // 256 px panel (embedded.spec.ts).
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(panel.getByRole("textbox", { name: "MCP URL" })).toBeVisible();
  expect(await cutOffIn(panel)).toEqual([]);
  expect(breaksInsideUrlParts(MCP_URL, await shownLines(panel.getByRole("textbox", { name: "MCP URL" })))).toEqual([]);
  await page.setViewportSize({ width: 1280, height: 900 });

  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: new URL(page.url()).origin });
  await copy.click();
  await expect(panel.getByRole("status").filter({ hasText: "Copied" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MCP_URL);

  // Without a clipboard, the address is selected and the member is told how to copy it with the keyboard.
  await page.evaluate(() => Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true }));
  await copy.click();
  await expect(panel.getByRole("status")).toHaveText(COPY_BY_KEYBOARD.en);
  const url = panel.getByRole("textbox", { name: "MCP URL" });
  await expect(url).toBeFocused();
  expect(await url.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd))).toBe(MCP_URL);

  // The answer the browser got carries no token.
  const answer = await page.request.get("/api/account/connections");
  expect(answer.status()).toBe(200);
  expect(await answer.text()).not.toMatch(/access_?token|refresh_?token|bearer/i);
});

test("a long MCP URL shows whole at 320 and 390 px, and goes on to a new line only between the parts of its address", async ({ page }) => {
  // The URL is the dashboard's SITE_URL's (the sandbox's 127.0.0.1 here), and no knob makes it longer: the
  // panel gets the answer the dashboard gives for a site at a long address. Each label fits a 320 px line;
  // the browser's own rules broke after the "-" of "northwind-academy".
  const longUrl = "https://learn.northwind-academy.example.com:8443/api/v2/mcp?tenant=north-campus&lang=zh-TW#tools";
  await page.route("**/api/account/connections", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), mcpUrl: longUrl } });
  });
  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  await signIn(page, "maya@example.com");
  await openSettings(page);
  await page.getByText("Connect an AI assistant (beta)").click();
  const panel = page.getByRole("region", { name: "AI assistants" });
  const url = panel.getByRole("textbox", { name: "MCP URL" });
  await expect(url).toHaveValue(longUrl);
  for (const width of [320, 390]) {
    await page.setViewportSize({ width, height: 800 });
    expect(await cutOffIn(panel)).toEqual([]);
    const lines = await shownLines(url);
    expect(lines.length, lines.join(" / ")).toBeGreaterThan(2);
    expect(breaksInsideUrlParts(longUrl, lines), `${width} px`).toEqual([]);
  }
  await url.click();
  expect(await url.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd))).toBe(longUrl);
});

// The sandbox's MCP server is stateless and answers with JSON; the SDK's default server answers with event
// streams, and many keep sessions (Mcp-Session-Id), which the dashboard ends once it has listed the tools; a
// server with many tools lists them a page at a time (the member's orders are on the third page of two).
for (const { server, knobs } of [
  { server: "", knobs: {} },
  {
    server: ", from a server that keeps sessions, answers with event streams and lists two tools a page",
    knobs: { mcpSessions: true, mcpEventStream: true, mcpToolsPageSize: 2 },
  },
]) {
  const title =
    "a site that writes its tools in the student's language shows them in it, marked as such, and again after a language switch";
  test(`${title}${server}`, async ({ page }) => {
    await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
    await postSandboxControl(page, "/__sandbox/knobs", { mcpLocalizedTools: true, ...knobs });
    await signIn(page, "maya@example.com");
    await openSettings(page);
    await page.getByText(PANEL_WORDS.en.open).click();
    const english = page.getByRole("region", { name: "For you" });
    await expect(english.getByText("List my orders")).toHaveAttribute("lang", "en");

    // The language switch renders Settings again in 繁體中文, the disclosure still open; the tools are asked
    // for again, in it.
    await page.getByRole("radio", { name: "繁體中文" }).check();
    await expect(page.locator("details").filter({ hasText: PANEL_WORDS["zh-TW"].open })).toHaveAttribute("open", "");
    const chinese = page.getByRole("region", { name: "你的資料" });
    await expect(chinese.getByText("列出我的訂單")).toHaveAttribute("lang", "zh-TW");
    await expect(chinese.getByText(/已登入學員的訂單/)).toHaveAttribute("lang", "zh-TW");
    await expect(page.getByRole("region", { name: "課程目錄" }).getByText("搜尋課程")).toBeVisible();
    await expect(chinese.getByText("List my orders")).toHaveCount(0);
    await expect(page.getByText("助理會請你登入「Demo Academy (sandbox)」並核准存取。請只核准你信任的助理。")).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
}

/**
 * Opens the AI assistant panel in Settings in `locale`, with a clipboard that refuses to be written (as a
 * browser does without the permission), presses Copy as the device does (a tap on a touch screen), and
 * returns what the panel then says, once it has checked that the whole address is selected in its field.
 */
async function refusedCopy(page: Page, context: BrowserContext, locale: "en" | "zh-TW", touch: boolean): Promise<string> {
  await chooseLanguage(context, locale);
  await page.goto("/settings");
  const words = PANEL_WORDS[locale];
  await page.getByText(words.open).click();
  const url = page.getByRole("textbox", { name: words.url });
  await expect(url).toHaveValue(MCP_URL);
  const copy = page.getByRole("button", { name: words.copy });
  await (touch ? copy.tap() : copy.click());
  const status = page.getByRole("status").filter({ hasText: /\S/ });
  await expect(status).toHaveCount(1);
  await expect(url).toBeFocused();
  expect(await url.evaluate((field: HTMLTextAreaElement) => field.value.slice(field.selectionStart, field.selectionEnd))).toBe(MCP_URL);
  return (await status.textContent())!;
}

async function refuseClipboard(page: Page): Promise<void> {
  await page.addInitScript(() => {
    Clipboard.prototype.writeText = () => Promise.reject(new DOMException("Write permission denied.", "NotAllowedError"));
  });
}

/** What Copy says in each language with the clipboard refused, signed in on a device whose main pointer is (not) a finger. */
async function refusedCopyInBothLanguages(page: Page, context: BrowserContext, touch: boolean): Promise<Record<"en" | "zh-TW", string>> {
  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  await refuseClipboard(page);
  await signIn(page, "maya@example.com");
  expect(await page.evaluate(() => matchMedia("(pointer: coarse)").matches)).toBe(touch);
  return { en: await refusedCopy(page, context, "en", touch), "zh-TW": await refusedCopy(page, context, "zh-TW", touch) };
}

test.describe("on a phone, held in the hand", () => {
  test.use({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });

  test("when the clipboard refuses, the student is told to choose Copy in the phone's menu, not to press Ctrl+C", async ({
    page,
    context,
  }) => {
    expect(await refusedCopyInBothLanguages(page, context, true)).toEqual(COPY_BY_TOUCH);
  });
});

test("at a computer, when the clipboard refuses, the student is told to press Ctrl+C (⌘C on a Mac), not to look for a menu", async ({
  page,
  context,
}) => {
  expect(await refusedCopyInBothLanguages(page, context, false)).toEqual(COPY_BY_KEYBOARD);
});

test("a site without an MCP server (its beta off) shows no AI assistant disclosure, and the rest of Settings still works", async ({
  page,
}) => {
  await signIn(page, "maya@example.com");
  await postSandboxControl(page, "/__sandbox/knobs", { failures: { mcp: { mode: "status", status: 404 } } });
  await openSettings(page);

  await expect(page.getByText("maya@example.com")).toBeVisible();
  await expect(page.getByRole("heading", { name: "What this app may do" })).toBeVisible();
  await expect(page.getByText("Connect an AI assistant (beta)")).toHaveCount(0);
  await expect(page.getByRole("region", { name: "AI assistants" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Revoke access" })).toBeVisible();
  await expectNoSeriousAxeViolations(page);
});

test("once shown, the disclosure stays when the member comes back to a busy MCP server, says so inside; Retry brings it back", async ({
  page,
}) => {
  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  await signIn(page, "maya@example.com");
  // The page's clock, so that "a few minutes later" needs no wait.
  await page.clock.install();
  await openSettings(page);
  await page.getByText(PANEL_WORDS.en.open).click();
  await expect(page.getByRole("textbox", { name: PANEL_WORDS.en.url })).toHaveValue(MCP_URL);

  // The member leaves to set up the assistant; meanwhile the site's MCP server starts limiting how often it answers.
  await postSandboxControl(page, "/__sandbox/knobs", { failures: { mcp: { mode: "status", status: 429, retryAfter: "120" } } });
  await page.clock.fastForward("03:00");
  const asked = page.waitForResponse((response) => response.url().endsWith("/api/account/connections"));
  await page.evaluate(() => window.dispatchEvent(new Event("visibilitychange")));
  await asked;

  const panel = page.getByRole("region", { name: "AI assistants" });
  await expect(panel.getByText("AI assistants cannot connect to this site right now")).toBeVisible();
  // With the wait the server named (Retry-After: 120).
  await expect(panel.getByText("The site's MCP server is busy right now. Please try again in 2 minutes.")).toBeVisible();
  await expect(page.getByRole("heading", { level: 2, name: PANEL_WORDS.en.open })).toBeVisible();

  await postSandboxControl(page, "/__sandbox/knobs", { failures: { mcp: null } });
  await panel.getByRole("button", { name: "Retry" }).click();
  await expect(page.getByRole("textbox", { name: PANEL_WORDS.en.url })).toHaveValue(MCP_URL);
  await expectNoSeriousAxeViolations(page);
});

test("the site's admin switch decides: with the MCP connections beta off, no AI assistant; turned on, the disclosure appears", async ({
  page,
}) => {
  // The sandbox as seeded (and after reset): the beta is off.
  await signIn(page, "maya@example.com");
  await openSettings(page);
  await expect(page.getByRole("heading", { name: "What this app may do" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Revoke access" })).toBeVisible();
  await expect(page.getByText("Connect an AI assistant (beta)")).toHaveCount(0);

  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: true });
  await page.reload();
  await expect(page.getByText("Connect an AI assistant (beta)")).toBeVisible();

  await postSandboxControl(page, "/__sandbox/mcp-beta", { enabled: false });
  await page.reload();
  await expect(page.getByRole("button", { name: "Revoke access" })).toBeVisible();
  await expect(page.getByText("Connect an AI assistant (beta)")).toHaveCount(0);
});
