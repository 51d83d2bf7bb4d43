import "server-only";

/** What a Resume link needs to know about where the site lives and how its lecture URLs look. */
export interface ResumeUrlConfig {
  /** The site's origin, e.g. "https://school.example.com" (substituted as is for `{site}`). */
  siteUrl: string;
  /** LECTURE_URL_TEMPLATE, e.g. "{site}/courses/{slug}/lectures/{lectureId}?t={positionSeconds}". */
  lectureUrlTemplate: string;
}

export interface LecturePosition {
  slug: string;
  lectureId: string;
  positionSeconds: number;
}

/**
 * Fills LECTURE_URL_TEMPLATE. `{site}` takes the site's origin (without a trailing slash); `{slug}`,
 * `{lectureId}` and `{positionSeconds}` are URL-encoded. Returns null unless the result is an absolute
 * http(s) URL, so a hostile value can never become a `javascript:` link.
 */
export function buildResumeUrl(position: LecturePosition, config: ResumeUrlConfig): string | null {
  const values: Record<string, string> = {
    site: config.siteUrl.replace(/\/+$/, ""),
    slug: encodeURIComponent(position.slug),
    lectureId: encodeURIComponent(position.lectureId),
    positionSeconds: encodeURIComponent(String(Math.max(0, Math.floor(position.positionSeconds)))),
  };
  const filled = config.lectureUrlTemplate.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
  try {
    const url = new URL(filled);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}

/** Keeps only absolute http(s) URLs from the site (event links, images); anything else becomes null. */
export function safeHttpUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
