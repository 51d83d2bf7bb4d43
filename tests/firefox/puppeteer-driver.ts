import { TargetType, type ElementHandle, type Frame, type Page } from "puppeteer-core";

import { eventually, type JourneyDriver, type PopupDriver, type Target } from "../journeys/driver";

const EXPECT_TIMEOUT_MS = 15_000;

/**
 * The shared journeys' driver (tests/journeys) on a puppeteer-core page in Firefox, or on a frame of it.
 * Roles and exact names go through Firefox's own accessibility tree (puppeteer's ARIA query, the WebDriver
 * BiDi accessibility locator). A pattern for a name is matched against the text the element offers
 * assistive technology (aria-label, else its text without aria-hidden parts), since BiDi does not
 * report computed names.
 */
export function puppeteerDriver(page: Page, frameOf: () => Promise<Frame> = () => Promise.resolve(page.mainFrame())): JourneyDriver {
  const firstVisible = async (target: Target): Promise<ElementHandle<Element>> => {
    let found: ElementHandle<Element> | undefined;
    await eventually(async () => {
      const candidates = await findAll(await frameOf(), target);
      for (const candidate of candidates) {
        if (await candidate.isVisible()) {
          found = candidate;
          return;
        }
      }
      throw new Error(`Nothing visible matches ${describe(target)}`);
    }, EXPECT_TIMEOUT_MS);
    return found!;
  };
  const driver: JourneyDriver = {
    async waitForUrl(pattern) {
      await eventually(async () => {
        const url = (await frameOf()).url();
        if (!pattern.test(url)) throw new Error(`${url} does not match ${String(pattern)}`);
      }, EXPECT_TIMEOUT_MS);
    },
    async click(target) {
      const element = await firstVisible(target);
      // As Playwright's click does, a control that is disabled for a moment (a confirmation arming itself,
      // `disabled` or `aria-disabled`) is waited for; one that stays disabled (a request in flight) is clicked as it is.
      await eventually(async () => {
        const disabled = await element.evaluate(
          (node) => (node as HTMLButtonElement).disabled === true || node.getAttribute("aria-disabled") === "true",
        );
        if (disabled) throw new Error("disabled");
      }, 2_000).catch(() => undefined);
      await element.click();
    },
    async fill(target, value) {
      const field = await firstVisible(target);
      await field.evaluate((element) => {
        (element as HTMLInputElement).value = "";
      });
      await field.type(value);
    },
    async expectVisible(target) {
      await firstVisible(target);
    },
    async expectNone(target) {
      await eventually(async () => {
        const count = (await findAll(await frameOf(), target)).length;
        if (count > 0) throw new Error(`${count} elements still match ${describe(target)}`);
      }, EXPECT_TIMEOUT_MS);
    },
    async isVisible(target) {
      const [first] = await findAll(await frameOf(), target);
      return first ? first.isVisible() : false;
    },
    async count(target) {
      return (await findAll(await frameOf(), target)).length;
    },
    async attribute(target, name) {
      return (await firstVisible(target)).evaluate((element, attribute) => element.getAttribute(attribute), name);
    },
    async text(target) {
      return (await firstVisible(target)).evaluate((element) => (element.textContent ?? "").replace(/\s+/g, " ").trim());
    },
    async clickOpeningPopup(target) {
      const context = page.browserContext();
      const before = new Set(context.targets());
      const element = await firstVisible(target);
      // Only the page's script opens the popup: before hydration a press opens something else (the panel's
      // Sign in: a new tab) or nothing. Hydrated once React's props are on the element.
      await eventually(async () => {
        const isHydrated = await element.evaluate((node) => Object.keys(node).some((key) => key.startsWith("__reactProps")));
        if (!isHydrated) throw new Error(`${describe(target)} is not hydrated yet`);
      }, EXPECT_TIMEOUT_MS);
      // Firefox over BiDi: the page's "popup" event does not fire for a window opened by a cross-site
      // frame, so the popup is the browser context's next new page.
      const opened = context.waitForTarget((candidate) => candidate.type() === TargetType.PAGE && !before.has(candidate), {
        timeout: EXPECT_TIMEOUT_MS,
      });
      await element.click();
      const popup = await (await opened).page();
      if (!popup) throw new Error("The click opened no page.");
      return popupDriver(popup);
    },
  };
  return driver;
}

function popupDriver(popup: Page): PopupDriver {
  const closed = new Promise<void>((resolve) => {
    if (popup.isClosed()) resolve();
    popup.once("close", () => resolve());
  });
  return { ...puppeteerDriver(popup), closed: () => closed };
}

/** Every element in the frame (or within the target's `within`) that matches, in document order. */
async function findAll(frame: Frame, target: Target): Promise<ElementHandle<Element>[]> {
  try {
    return await findAllOnce(frame, target);
  } catch (error) {
    // A navigation between finding and reading: nothing matches in the page that is going away.
    if (error instanceof Error && /context|detached|destroyed|discarded|no such/i.test(error.message)) return [];
    throw error;
  }
}

async function findAllOnce(frame: Frame, target: Target): Promise<ElementHandle<Element>[]> {
  if ("label" in target) {
    const handle = await frame.evaluateHandle((label) => {
      const normalize = (text: string | null) => (text ?? "").replace(/\s+/g, " ").trim();
      return [...document.querySelectorAll("label")].find((element) => normalize(element.textContent) === label)?.control ?? null;
    }, target.label);
    const field = handle.asElement() as ElementHandle<Element> | null;
    return field ? [field] : [];
  }
  if ("text" in target) return elementsWithText(frame, target.text);
  const root = target.within ? (await findAll(frame, target.within))[0] : frame;
  if (!root) return [];
  const exactName = typeof target.name === "string" ? `[name=${JSON.stringify(target.name)}]` : "";
  let found = await root.$$(`::-p-aria(${exactName}[role="${target.role}"])`);
  if (target.name instanceof RegExp) found = await keep(found, target.name, "name");
  if (target.hasText !== undefined) found = await keep(found, target.hasText, "text");
  return found;
}

/**
 * Keeps the elements whose accessible-name text (or whole text) matches: all of them judged in one call
 * to the page (one BiDi round trip, not one per element: a Courses page holds hundreds of buttons).
 */
async function keep(
  elements: ElementHandle<Element>[],
  pattern: string | RegExp,
  what: "name" | "text",
): Promise<ElementHandle<Element>[]> {
  const [first] = elements;
  if (!first) return [];
  const { source, flags } = asPattern(pattern);
  const matches = await first.frame.evaluate(
    (source, flags, what, ...nodes) => {
      const visibleText = (from: Node): string => {
        if (from instanceof Element && from.getAttribute("aria-hidden") === "true") return "";
        if (from.nodeType === Node.TEXT_NODE) return from.textContent ?? "";
        return [...from.childNodes].map(visibleText).join("");
      };
      return nodes.map((node) => {
        const text = what === "name" ? (node.getAttribute("aria-label") ?? visibleText(node)) : (node.textContent ?? "");
        return new RegExp(source, flags).test(text.replace(/\s+/g, " ").trim());
      });
    },
    source,
    flags,
    what,
    ...elements,
  );
  return elements.filter((_, index) => matches[index]);
}

/** The innermost elements whose text matches, like a person reading the page (Playwright's getByText). */
async function elementsWithText(frame: Frame, pattern: string | RegExp): Promise<ElementHandle<Element>[]> {
  const { source, flags } = asPattern(pattern);
  const list = await frame.evaluateHandle(
    (source, flags) => {
      const matcher = new RegExp(source, flags);
      const matches = (element: Element) => matcher.test((element.textContent ?? "").replace(/\s+/g, " ").trim());
      return [...document.body.querySelectorAll("*")].filter(
        (element) => !["SCRIPT", "STYLE", "TEMPLATE"].includes(element.tagName) && matches(element) && ![...element.children].some(matches),
      );
    },
    source,
    flags,
  );
  const properties = await list.getProperties();
  await list.dispose();
  return [...properties.values()].flatMap((handle) => {
    const element = handle.asElement() as ElementHandle<Element> | null;
    return element ? [element] : [];
  });
}

/** A string matches as a case-insensitive substring, as in Playwright's text matching. */
function asPattern(pattern: string | RegExp): { source: string; flags: string } {
  if (pattern instanceof RegExp) return { source: pattern.source, flags: pattern.flags };
  return { source: pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), flags: "i" };
}

function describe(target: Target): string {
  return JSON.stringify(target, (_key, value: unknown) => (value instanceof RegExp ? String(value) : value));
}
