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
  let filled = "";
  for (const part of templateParts(template)) {
    if (typeof part === "string") filled += part;
    else if (part.placeholder === "site") filled += siteUrl.endsWith("/") ? siteUrl.replace(/\/+$/, "") : siteUrl;
    else {
      const value = encoded[part.placeholder];
      filled += value === undefined ? `{${part.placeholder}}` : encodeURIComponent(value);
    }
  }
  return safeHttpUrl(filled);
}

type TemplatePart = string | { placeholder: string };

/** A template split once into its text and its `{name}`s: it is filled twice per course on every data request. */
const splitTemplates = new Map<string, readonly TemplatePart[]>();

function templateParts(template: string): readonly TemplatePart[] {
  let parts = splitTemplates.get(template);
  if (!parts) {
    parts = template
      .split(/(\{\w+\})/)
      .filter((part) => part !== "")
      .map((part) => (/^\{\w+\}$/.test(part) ? { placeholder: part.slice(1, -1) } : part));
    // The configured templates (two); a bound all the same, should a caller ever pass others.
    if (splitTemplates.size < 16) splitTemplates.set(template, parts);
  }
  return parts;
}

/**
 * Keeps only http(s) URLs from the site (event links, images); anything else becomes null. With `base` (the
 * site's URL), a link the site gives relative to itself (`/uploads/cover.jpg`, `//cdn.example/x.jpg`) is
 * read as the browser on the site's page would read it.
 */
export function safeHttpUrl(value: string | null | undefined, base?: string): string | null {
  return httpUrl(value, base)?.toString() ?? null;
}

/** `safeHttpUrl`'s reading, as a URL (null for anything but http(s)). */
export function httpUrl(value: string | null | undefined, base?: string): URL | null {
  if (!value) return null;
  try {
    const url = new URL(value, base);
    return url.protocol === "https:" || url.protocol === "http:" ? url : null;
  } catch {
    return null;
  }
}
