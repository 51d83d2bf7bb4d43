/**
 * The one message the embedded dashboard sends to the page that frames it: the height of its content in
 * CSS pixels, whenever it changes, so the site can size the frame to it (no scroll inside the frame). Sent
 * with `postMessage` to the configured site origin only (EMBED_ORIGINS), never to `*`. The README's
 * "Embedding" section shows how a site uses it. Client-safe.
 */
export const PANEL_HEIGHT_MESSAGE = "companion-dashboard:height";

export interface PanelHeightMessage {
  type: typeof PANEL_HEIGHT_MESSAGE;
  /** The content's height in CSS pixels, a whole number. */
  height: number;
}

export function panelHeightMessage(height: number): PanelHeightMessage {
  return { type: PANEL_HEIGHT_MESSAGE, height: Math.ceil(height) };
}

/**
 * Which of the configured origins the frame's parent has: the browser's list of ancestors where it gives one
 * (Chromium), else the referrer the frame was loaded with; with one configured origin, that one. Null when
 * the parent is none of them (nothing is sent then).
 */
export function pickParentOrigin(
  configured: readonly string[],
  clues: { ancestorOrigin?: string | null; referrer?: string | null },
): string | null {
  if (configured.length === 0) return null;
  const candidates = [clues.ancestorOrigin, originOf(clues.referrer)].filter((value): value is string => Boolean(value));
  for (const candidate of candidates) if (configured.includes(candidate)) return candidate;
  if (candidates.length > 0 && clues.ancestorOrigin) return null;
  return configured.length === 1 ? configured[0]! : null;
}

function originOf(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
