/** What a click says of itself, as the DOM's and React's mouse events both tell it. */
interface Click {
  defaultPrevented: boolean;
  button: number;
  metaKey: boolean;
  ctrlKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/**
 * The link a plain click follows in the page's own browsing context, or null: a click already handled, with
 * another button or a modifier key (a new tab or window), on no link, or on one that opens elsewhere
 * (another `target`, unless `topToo` and it is `_top`) or downloads.
 */
export function linkOfPlainClick(click: Click, { topToo = false }: { topToo?: boolean } = {}): HTMLAnchorElement | null {
  if (click.defaultPrevented || click.button !== 0 || click.metaKey || click.ctrlKey || click.shiftKey || click.altKey) return null;
  const anchor = click.target instanceof Element ? click.target.closest("a[href]") : null;
  if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute("download")) return null;
  const opensHere = !anchor.target || anchor.target === "_self" || (topToo && anchor.target === "_top");
  return opensHere ? anchor : null;
}
