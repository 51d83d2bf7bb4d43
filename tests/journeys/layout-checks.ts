/**
 * Checks of what a reader can see, run inside the page by either browser's evaluate (Playwright's
 * `locator.evaluate`, puppeteer's `$eval`): each function stands alone, since it is sent to the page as its
 * source. Each returns what it found wrong, in words; empty when all is well.
 */

/**
 * What cannot be read whole inside `container` at the page's current width: a field or box whose content is
 * wider or taller than it and hidden there (a one-line field's address cut off, with nothing to say it goes
 * on), an element past the container's right edge, and the document scrolling sideways.
 */
export function cutOff(container: Element): string[] {
  const edge = container.getBoundingClientRect().right;
  const found: string[] = [];
  for (const element of [container, ...container.querySelectorAll<HTMLElement>("*")]) {
    const box = element.getBoundingClientRect();
    // Hidden things (a visually hidden label, a copy that only gives a box its height) are never read.
    if (getComputedStyle(element).visibility === "hidden" || box.width <= 1 || box.height <= 1) continue;
    const field = element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
    const text = field ? element.value : (element.textContent ?? "");
    const name = `<${element.tagName.toLowerCase()}> ${JSON.stringify(text.slice(0, 40))}`;
    const clips = field || getComputedStyle(element).overflowX !== "visible" || getComputedStyle(element).overflowY !== "visible";
    if (clips && (element.scrollWidth > element.clientWidth || element.scrollHeight > element.clientHeight)) {
      found.push(`${name} shows ${element.clientWidth}×${element.clientHeight} of ${element.scrollWidth}×${element.scrollHeight}`);
    }
    if (box.right > edge + 0.5) found.push(`${name} goes ${Math.round(box.right - edge)} px past the edge`);
  }
  const page = document.documentElement;
  if (page.scrollWidth > page.clientWidth) found.push(`the page scrolls sideways: ${page.scrollWidth} > ${page.clientWidth}`);
  return found;
}

/** What runs into a card's padding or past it inside `container` (a time kept on one line, a button wider than the card's text). */
export function outsideCardsContent(container: Element): string[] {
  const found: string[] = [];
  for (const card of container.querySelectorAll<HTMLElement>(".card")) {
    const style = getComputedStyle(card);
    const right = card.getBoundingClientRect().right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight);
    for (const element of card.querySelectorAll<HTMLElement>("*")) {
      const box = element.getBoundingClientRect();
      if (getComputedStyle(element).visibility === "hidden" || box.width <= 1 || box.height <= 1) continue;
      if (box.right <= right + 0.5) continue;
      const name = `<${element.tagName.toLowerCase()}> ${JSON.stringify((element.textContent ?? "").slice(0, 40))}`;
      found.push(`${name} by ${Math.round(box.right - right)} px`);
    }
  }
  return found;
}
