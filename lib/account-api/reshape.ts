import "server-only";

import type { CourseEnrollment, EventRegistration, Page } from "@/lib/types/account";
import type { RawConnection, RawEnrolledCourse, RawEventRegistration, RawPageInfo } from "./fragments";
import { FIELD_UNKNOWN } from "./partial-answer";
import { coverUrl, type CoverSources } from "./cover-url";
import { buildCourseUrl, buildResumeUrl, safeHttpUrl, type ResumeUrlConfig } from "./lecture-url";

/** What the site's links in an answer are read with: the Resume and course links' templates, and the covers' sources. */
export interface SiteLinkConfig extends ResumeUrlConfig {
  covers: CoverSources;
}

/**
 * An enrollment in UI shape. Lifetime access wins over an expiry date; a course with neither is treated
 * as lifetime (the site only omits the date for lifetime access). `lastWatched` is kept even when access
 * has ended — the UI decides not to offer Resume then — and dropped only when no safe URL can be built, or
 * when the site failed to say (`lastWatchedUnknown`, unless the site gave the course's progress as 0 %:
 * such a course is one never started).
 */
export function reshapeEnrolledCourse(raw: RawEnrolledCourse, config: SiteLinkConfig): CourseEnrollment {
  const lecture = raw.lastWatchedLecture === FIELD_UNKNOWN ? null : raw.lastWatchedLecture;
  const resumeUrl = lecture
    ? buildResumeUrl({ slug: raw.slug, lectureId: lecture.lectureId, positionSeconds: lecture.positionSeconds }, config)
    : null;
  const completion = raw.completionPercentage;
  // What the member sees: a whole percentage from 0 to 100, whatever number the site sent.
  const completionPercentage = completion === null || completion === undefined ? null : Math.min(100, Math.max(0, Math.round(completion)));
  // At 0 % the member has not started: nowhere to have left off, whatever the site failed to say.
  const lastWatchedUnknown = raw.lastWatchedLecture === FIELD_UNKNOWN && completionPercentage !== 0;
  return {
    slug: raw.slug,
    name: raw.name?.trim() || raw.slug,
    imageUrl: coverUrl(raw.imageUrl, config.siteUrl, config.covers),
    courseUrl: buildCourseUrl(raw.slug, config),
    access: raw.hasLifetimeAccess || !raw.expireDate ? { kind: "lifetime" } : { kind: "until", expiresAt: raw.expireDate },
    completionPercentage,
    lastWatched:
      lecture && resumeUrl
        ? {
            lectureId: lecture.lectureId,
            positionSeconds: Math.max(0, Math.floor(lecture.positionSeconds)),
            title: lecture.title?.trim() || null,
            watchedAt: lecture.watchedAt ?? null,
            resumeUrl,
          }
        : null,
    ...(lastWatchedUnknown ? { lastWatchedUnknown } : {}),
  };
}

/** A registration in UI shape; event links other than http(s) are dropped. */
export function reshapeEventRegistration(raw: RawEventRegistration, siteUrl: string): EventRegistration {
  return {
    id: raw.id,
    state: raw.state,
    registeredAt: raw.registeredAt ?? null,
    event: {
      id: raw.event.id,
      title: raw.event.title,
      startTime: raw.event.startTime,
      endTime: raw.event.endTime ?? null,
      isAllDay: raw.event.isAllDay ?? false,
      location: raw.event.location?.trim() || null,
      url: safeHttpUrl(raw.event.url, siteUrl),
    },
  };
}

/** The cursor for the next page, or null when the site says there is none (or does not page). */
export function nextCursorOf(pageInfo: RawPageInfo | null | undefined): string | null {
  return pageInfo?.hasNextPage && pageInfo.endCursor ? pageInfo.endCursor : null;
}

/** One page in UI shape; without the site's `totalCount`, the items read so far are the count. */
export function reshapePage<TRaw, TItem>(connection: RawConnection<TRaw>, reshapeNode: (node: TRaw) => TItem): Page<TItem> {
  const items = connection.nodes.map(reshapeNode);
  return {
    items,
    totalCount: connection.totalCount ?? items.length,
    nextCursor: nextCursorOf(connection.pageInfo),
    ...unavailableItems(connection.itemsUnavailable),
  };
}

/** A page's `itemsUnavailable`, present only when the site could not give some of its items. */
export function unavailableItems(count: number | undefined): Pick<Page<unknown>, "itemsUnavailable"> {
  return count ? { itemsUnavailable: count } : {};
}
