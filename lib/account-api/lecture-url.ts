import "server-only";

import { DEFAULT_COURSE_URL_TEMPLATE } from "@/lib/config/env-schema";

/** What a Resume link needs to know about where the site lives and how its lecture URLs look. */
export interface ResumeUrlConfig {
  /** The site's origin, e.g. "https://school.example.com" (substituted as is for `{site}`). */
  siteUrl: string;
  /** LECTURE_URL_TEMPLATE, e.g. "{site}/courses/{slug}/lectures/{lectureId}?t={positionSeconds}". */
  lectureUrlTemplate: string;
  /** COURSE_URL_TEMPLATE for Start and Renew links, e.g. "{site}/courses/{slug}" (the default when absent). */
  courseUrlTemplate?: string;
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
  return fillUrlTemplate(config.lectureUrlTemplate, config.siteUrl, {
    slug: position.slug,
    lectureId: position.lectureId,
    positionSeconds: String(Math.max(0, Math.floor(position.positionSeconds))),
  });
}

/** Fills COURSE_URL_TEMPLATE (Start and Renew links) the same way: `{site}` and the URL-encoded `{slug}`. */
export function buildCourseUrl(slug: string, config: ResumeUrlConfig): string | null {
  return fillUrlTemplate(config.courseUrlTemplate ?? DEFAULT_COURSE_URL_TEMPLATE, config.siteUrl, { slug });
}

function fillUrlTemplate(template: string, siteUrl: string, encoded: Readonly<Record<string, string>>): string | null {
  const values: Record<string, string> = { site: siteUrl.replace(/\/+$/, "") };
  for (const [name, value] of Object.entries(encoded)) values[name] = encodeURIComponent(value);
  return safeHttpUrl(template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole));
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
