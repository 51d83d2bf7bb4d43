import type { DashboardEvent } from "@/lib/types/account";

/** A timed event (an hour-long Q&A on 5 December 2026, 11:00 UTC, no end, place or link) with `overrides`. */
export function eventFixture(overrides: Partial<DashboardEvent>): DashboardEvent {
  return {
    id: "e1",
    title: "Live Q&A",
    startTime: "2026-12-05T11:00:00Z",
    endTime: null,
    isAllDay: false,
    location: null,
    url: null,
    ...overrides,
  };
}

/** Intl separates some parts with no-break or thin spaces; compare them as plain spaces. */
export const plainSpaces = (text: string): string => text.replace(/[\u00a0\u2009\u202f]/g, " ");
