/**
 * The small part of a browser that the shared journeys need, so that the same steps run in Chromium
 * (Playwright, tests/e2e) and in Firefox (puppeteer-core over WebDriver BiDi, tests/firefox). Elements are
 * found the way a person finds them: by role and accessible name, by a form field's label, or by text.
 */
export type Role = "alert" | "article" | "button" | "heading" | "link" | "navigation" | "radio" | "status";

/**
 * A string name is the exact accessible name; a pattern matches part of it. `hasText` keeps the elements
 * whose text contains it (for elements named by nothing but their content, such as a course's card);
 * `within` looks only inside the first match of another target.
 */
export type Target =
  { role: Role; name?: string | RegExp; hasText?: string | RegExp; within?: Target } | { label: string } | { text: string | RegExp };

export interface JourneyDriver {
  /** Waits until the page's URL matches (the top-level page, or the frame the driver drives). */
  waitForUrl(pattern: RegExp): Promise<void>;
  /** Clicks the first match, once it is visible. */
  click(target: Target): Promise<void>;
  /** Replaces the value of the field with that label. */
  fill(target: Target, value: string): Promise<void>;
  /** Waits until the first match is visible; fails after the engine's expectation timeout. */
  expectVisible(target: Target): Promise<void>;
  /** Waits until nothing matches. */
  expectNone(target: Target): Promise<void>;
  /** Whether the first match is visible now, without waiting. */
  isVisible(target: Target): Promise<boolean>;
  /** How many elements match now, without waiting. */
  count(target: Target): Promise<number>;
  /** Waits for the first match, then reads one of its attributes. */
  attribute(target: Target, name: string): Promise<string | null>;
  /** Waits for the first match, then reads its text, white space collapsed. */
  text(target: Target): Promise<string>;
  /** Clicks the first match and returns the window that the click opened. */
  clickOpeningPopup(target: Target): Promise<PopupDriver>;
}

export interface PopupDriver extends JourneyDriver {
  /** Resolves once the popup has closed (itself, or by its page). */
  closed(): Promise<void>;
}

/** Retries a check until it passes or the time is up, then throws its last failure. */
export async function eventually(check: () => Promise<void>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}
