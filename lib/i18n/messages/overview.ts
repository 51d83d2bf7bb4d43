import type { Locale } from "../locales";
import type { Widen } from "./types";

/**
 * The words of the Overview page (components/overview/), kept apart from the dictionaries
 * (lib/i18n/messages/en.ts): those reach every route's first-load JavaScript, these only the Overview's
 * (docs/performance.md, "First-load JavaScript"). The page's title stays in the dictionaries, for its
 * metadata and the skeleton shown while any page is on its way.
 */
const en = {
  greeting: "Hello, {name}",
  continueWatching: "Continue watching",
  continueWatchingEmpty: "Nothing in progress yet. Start a lecture and it will appear here.",
  continueWatchingUnknown: "Where you left off in {count}\u00a0courses could not be loaded.",
  continueWatchingUnknownOne: "Where you left off in 1\u00a0course could not be loaded.",
  endingSoon: "Access ending soon",
  endingSoonEmpty: "No course access ends in the next 30\u00a0days.",
  // When the overview did not see every course (some past its bound, or not given by the site).
  endingSoonNoneLoaded: "No course that loaded here has access ending in the next 30\u00a0days.",
  upcomingEvents: "Upcoming events",
  upcomingEventsEmpty: "No upcoming events.",
  upcomingEventsUnavailable: "This site does not share your event registrations with the dashboard.",
  upcomingEventsFailed: "Your event registrations could not be loaded this time. Try again later, or open Events.",
  coursesLeftOut: "And {count}\u00a0more courses, not checked here.",
  coursesLeftOutUnknown: "And more courses, not checked here.",
  allCourses: "All courses",
  allEvents: "All events",
};

/** The shape of each language's words: exactly the English keys. */
export type OverviewWords = Widen<typeof en>;

const zhTW: OverviewWords = {
  greeting: "{name}，你好",
  continueWatching: "繼續觀看",
  continueWatchingEmpty: "目前沒有進行中的課程。開始觀看單元後，就會顯示在這裡。",
  continueWatchingUnknown: "有 {count}\u00a0門課程無法載入上次看到的位置。",
  continueWatchingUnknownOne: "有 1\u00a0門課程無法載入上次看到的位置。",
  endingSoon: "即將到期的課程",
  endingSoonEmpty: "未來 30\u00a0天內沒有課程到期。",
  endingSoonNoneLoaded: "此處已載入的課程中，沒有在未來 30\u00a0天內到期的。",
  upcomingEvents: "即將舉行的活動",
  upcomingEventsEmpty: "沒有即將舉行的活動。",
  upcomingEventsUnavailable: "此網站未向儀表板提供你的活動報名資料。",
  upcomingEventsFailed: "這次無法載入你的活動報名資料。請稍後再試，或開啟「活動」頁面。",
  coursesLeftOut: "另有 {count}\u00a0門課程未在此檢查。",
  coursesLeftOutUnknown: "另有更多課程未在此檢查。",
  allCourses: "所有課程",
  allEvents: "所有活動",
};

export const OVERVIEW_WORDS: Readonly<Record<Locale, OverviewWords>> = { en, "zh-TW": zhTW };
