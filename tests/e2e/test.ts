import { test as base, type BrowserContext, type Frame, type Page, type TestInfo } from "@playwright/test";

export * from "@playwright/test";

/**
 * Playwright's `test`, with one automatic addition: when a journey fails, its report says where each page of
 * the test's browser context was and what led there (each frame's navigations, failed requests, script
 * errors, and the answers of 400 and above its document received), so a failure in a CI log whose traces are
 * out of reach can still be read. The list reporter prints a text attachment in the failure's summary, up to
 * 300 characters each: the notes come as a few of them, newest last. Nothing listens to every request (that
 * slowed the journeys by a tenth): the answers' statuses are read from the documents' resource timings.
 */
export const test = base.extend<{ failureNotes: void }>({
  failureNotes: [
    async ({ context }, use, testInfo) => {
      const notes = watchContext(context);
      await use();
      if (testInfo.status !== testInfo.expectedStatus) await attachNotes(testInfo, context, notes);
    },
    { auto: true },
  ],
});

const ATTACHMENT_CHARS = 290;
const EVENT_ATTACHMENTS = 4;

function watchContext(context: BrowserContext): string[] {
  const notes: string[] = [];
  const started = Date.now();
  let pages = 0;
  context.on("page", (page) => {
    const name = pages++ === 0 ? "page" : `page${pages}`;
    const note = (text: string) => notes.push(`${((Date.now() - started) / 1000).toFixed(1)} ${name} ${text}`);
    page.on("framenavigated", (frame) => note(`${inFrame(page, frame)}at ${shortUrl(frame.url())}`));
    page.on("requestfailed", (request) => {
      // Aborted: what a page was still loading when it was left (every navigation does it).
      const reason = request.failure()?.errorText ?? "";
      if (reason !== "net::ERR_ABORTED") note(`failed ${shortUrl(request.url())} ${reason}`);
    });
    page.on("pageerror", (error) => note(`script error: ${error.message.slice(0, 120)}`));
    page.on("close", () => note("closed"));
  });
  return notes;
}

function inFrame(page: Page, frame: Frame): string {
  return frame === page.mainFrame() ? "" : "frame ";
}

/** An address without its query's values (codes, states) or fragment: its host and port, its path, its query's names. */
function shortUrl(address: string): string {
  try {
    const url = new URL(address);
    const names = [...new Set(url.searchParams.keys())];
    return `${url.host}${url.pathname}${names.length > 0 ? `?${names.join("&")}` : ""}`;
  } catch {
    return address.slice(0, 80);
  }
}

async function attachNotes(testInfo: TestInfo, context: BrowserContext, notes: string[]): Promise<void> {
  // One attachment per page, so that a host page, its frame and a popup each get their own 300 characters.
  const where = await Promise.all(context.pages().map((page, index) => describePage(page, index)));
  for (const [index, body] of where.entries()) {
    await testInfo.attach(`where page ${index + 1} stopped`, { body: body.slice(0, ATTACHMENT_CHARS), contentType: "text/plain" });
  }
  const chunks: string[] = [];
  let chunk = "";
  for (const note of [...notes].reverse()) {
    if (chunk.length + note.length + 1 > ATTACHMENT_CHARS) {
      chunks.unshift(chunk);
      if (chunks.length === EVENT_ATTACHMENTS) break;
      chunk = "";
    }
    chunk = chunk ? `${note.slice(0, ATTACHMENT_CHARS)}\n${chunk}` : note.slice(0, ATTACHMENT_CHARS);
  }
  if (chunk && chunks.length < EVENT_ATTACHMENTS) chunks.unshift(chunk);
  for (const [index, body] of chunks.entries()) {
    await testInfo.attach(`what happened (${index + 1} of ${chunks.length}, seconds since the start)`, { body, contentType: "text/plain" });
  }
}

/**
 * Each frame's address, its document's status and how far it is scrolled, its level-one headings, what its
 * alerts and status lines say, and the addresses (paths) its requests were answered 400 or above.
 */
async function describePage(page: Page, index: number): Promise<string> {
  if (page.isClosed()) return `page ${index + 1}: closed`;
  const frames = await Promise.all(
    page.frames().map(async (frame) => {
      const said = await frame
        .evaluate(() => {
          const status = (entry: PerformanceEntry) => (entry as PerformanceResourceTiming).responseStatus;
          const documentStatus = performance.getEntriesByType("navigation").map(status)[0] ?? 0;
          const refused = performance
            .getEntriesByType("resource")
            .filter((entry) => status(entry) >= 400)
            .map((entry) => `${status(entry)} ${new URL(entry.name).pathname}`);
          const words = [...document.querySelectorAll("h1, [role=alert], [role=status], output")]
            .map((element) => (element as HTMLElement).innerText.trim())
            .filter(Boolean);
          // Where the page was scrolled to, of how far it could be: a journey about what is in view can tell.
          const scrolled = `(scrolled ${Math.round(window.scrollY)} of ${document.documentElement.scrollHeight - window.innerHeight})`;
          return [`(${documentStatus})`, scrolled, ...words, ...refused].join(" | ").slice(0, 160);
        })
        .catch(() => "(not readable)");
      return `${frame === page.mainFrame() ? "" : "frame "}${shortUrl(frame.url())}: ${said}`;
    }),
  );
  return `page ${index + 1}: ${frames.join("; ")}`;
}
