import { CRASH_WORDS } from "./crash";

/**
 * English texts. This dictionary defines the shape every other language must match (see `Messages`).
 * Placeholders in braces (`{name}`) are filled by `interpolate`.
 */
export const en = {
  app: {
    name: CRASH_WORDS.en.appName,
    skipToContent: "Skip to content",
    mainNavigation: "Main",
    loading: "Loading…",
    offline: "You're offline. The dashboard will catch up when your connection is back.",
  },
  nav: {
    overview: "Overview",
    courses: "Courses",
    orders: "Orders",
    events: "Events",
    settings: "Settings",
  },
  shell: {
    /** An accessible name: what a control does, and for what ("Progress: Watercolour Basics"). */
    labelFor: "{label}: {name}",
    learning: "Learning",
    ordersAndEvents: "Orders & events",
    account: "Account",
    continue: "Continue",
    offlineShowing: "Offline: showing what you saw at {time}.",
    offlineUnseenTitle: "You're offline",
    offlineUnseenBody:
      "This page was not opened while you were online, so there is nothing to show yet. It loads as soon as your connection is back.",
    offlineNotReadyBody:
      "This page was not ready for offline use when your connection dropped. It loads as soon as your connection is back.",
    retry: "Retry",
    stillOffline: "Still offline. Try again once your connection is back.",
    loadingPage: "Loading {page}…",
    /** A button pressed while the page is still loading its scripts: it acts as soon as they have run. */
    continuesOnceLoaded: "Continuing as soon as the page has loaded…",
    joinOnline: "Join online",
  },
  embedded: {
    openInNewTab: "Open the dashboard in a new tab",
  },
  landing: {
    title: "Your courses, orders and events in one place",
    body: "Sign in with your school account to see your enrollments, pick up where you left off, and keep track of orders and events.",
    signIn: "Sign in",
    signedOut: "You are signed out.",
    revoked: "You revoked this app's access. The site no longer grants this app access to your account, and you are signed out.",
    expired: "Your session ended. Sign in again to continue.",
    signedOutLocally:
      "You are signed out here, but the site did not confirm that it ended this sign-in. " +
      "It ends when it expires; to end it now, revoke this app's access in your account on the site.",
    revokeRefused:
      "You are signed out here, but the site refused to withdraw this app's access because the dashboard is not configured correctly " +
      "for it. Remove this app in your account on the site, and tell the site's operator.",
    accessWithdrawn:
      "The site no longer accepts this app's access to your account: it was withdrawn at the site, or it expired. You are signed out. " +
      "Sign in again to continue.",
  },
  overview: {
    title: "Overview",
  },
  courses: {
    title: "Courses",
    count: "{count}\u00a0courses",
    countOne: "1\u00a0course",
    // Courses the site listed but could not give (a course deleted under an enrollment).
    unavailableOne: "1\u00a0course could not be loaded from the site.",
    unavailable: "{count}\u00a0courses could not be loaded from the site.",
    empty: "You're not enrolled in any course yet",
    emptyBody: "Courses you enroll in on the site will appear here.",
    showMore: "Show more",
    loadingMore: "Loading more…",
    progress: "Progress",
    progressLabel: "{percent}% complete",
    resume: "Resume",
    resumeAt: "Resume at {position}",
    lastLecture: "Last lecture: {title}",
    startCourse: "Start course",
    openCourse: "Open course",
    lastWatchedUnknown: "Where you left off could not be loaded.",
    renewAccess: "Renew access",
    addReminder: "Add a reminder",
    reminderTitle: "Access to {course} ends on {date}",
    reminderBody: "Your access to {course} ends on {date}. Finish it or renew your access before then.",
    show: "Show",
    // An option of the Show select on a phone: the choice and how many courses it holds.
    showOption: "{show} ({count})",
    shows: {
      all: "All",
      "in-progress": "In progress",
      "not-started": "Not started",
      "ending-soon": "Ending soon",
      ended: "Ended",
      lifetime: "Lifetime",
    },
    sortBy: "Sort by",
    sorts: {
      recent: "Recently watched",
      expiry: "Access ends soonest",
      name: "Name",
    },
    noMatch: "No course here",
    noMatchBody: "Try other words, or choose another option under Show.",
    noMatchWordsBody: "No course has these words in its name. Try other words.",
    noMatchShowBody: "Choose another option under Show.",
    bounded: "The counts cover the first {loaded}\u00a0of your {total}\u00a0courses. Show more loads the rest.",
    findCourse: "Find a course",
    showing: "Showing {shown}\u00a0of {count}",
    showMoreCounted: "Show {count}\u00a0more ({left}\u00a0left)",
  },
  access: {
    lifetime: "Lifetime access",
    until: "Access until {date} ({relative})",
    endsToday: "Access ends today",
    endsTomorrow: "Access ends tomorrow",
    // A no-break space: on a phone the number never ends a line with "days" starting the next.
    endsInDays: "Access ends in {count}\u00a0days",
    ended: "Access ended on {date}",
  },
  // The Orders page's words are in lib/i18n/messages/orders.ts; its title is here for the page skeleton.
  orders: {
    title: "Orders",
  },
  events: {
    title: "Events",
    upcoming: "Upcoming",
    past: "Past",
    empty: "You haven't registered for any event yet",
    emptyBody: "Events you register for on the site will appear here.",
    noUpcoming: "No upcoming events.",
    noPast: "No past events.",
    allDay: "All day",
    online: "Online",
    openLink: "Event link",
    addToCalendar: "Add to calendar",
    showMore: "Show more",
    timeZoneNote: "Times are shown in {timeZone}.",
    unavailableOne: "1\u00a0event registration could not be loaded from the site.",
    unavailable: "{count}\u00a0event registrations could not be loaded from the site.",
    state: {
      enrolled: "Registered",
      checked_in: "Checked in",
      no_show: "Missed",
      cancelled: "Cancelled",
    },
  },
  // The Settings page's words are in lib/i18n/messages/settings.ts; this one is shown by
  // components/settings/sign-out-button.tsx, which the account menu on every page imports.
  settings: {
    signOutBody: "Sign out ends your sign-in in this browser, and asks the site to end its own sign-in too when the site offers that.",
  },
  scopes: {
    openid: "Confirm who you are when you sign in",
    profile: "See your name",
    email: "See your email address",
    "account:read": "See your courses, progress, orders and event registrations",
    "account:write": "Make changes to your account",
    unknown: "Other permission ({scope})",
  },
  errors: {
    retry: "Retry",
    unexpected: "Something went wrong on our side. Please try again.",
    overview: "Your overview could not be loaded.",
    courses: "Your courses could not be loaded.",
    orders: "Your orders could not be loaded.",
    events: "Your events could not be loaded.",
    session: "Your account details could not be loaded.",
    unauthenticated: "Your session has ended. Taking you to sign in…",
    insufficientScope: "This app is not allowed to read this part of your account. Sign in again and grant access.",
    insufficientScopeNamed: "This needs a permission you have not granted: “{permission}” ({scope}). Sign in again and grant it.",
    signInAgain: "Sign in again",
    siteUnavailable: "The site is not available right now. Please try again in a moment.",
    siteUnavailableFor: "The site is not available right now. Please try again {when}.",
    siteBusy: "The site is busy right now. Please try again in a moment.",
    siteBusyFor: "The site is busy right now. Please try again {when}.",
    siteTimeout: "The site did not answer in time. Please try again.",
    queryFailed: "The site could not answer this request.",
    answerTooLarge: "The site's answer was too large for the dashboard to read.",
    siteMisconfigured: "The dashboard is not set up correctly for this site. Please tell the site's operator.",
    requestRefused: "The dashboard could not make this request. Reload the page and try again.",
    rateLimited: "Too many attempts from here. Please wait a moment and try again.",
    rateLimitedFor: "Too many attempts from here. Please try again {when}.",
    signInFailed: "Signing in could not be completed. Please sign in again.",
    network: "The dashboard could not be reached. Check your connection and try again.",
    unknown: "Something went wrong. Please try again.",
    temporarilyUnavailableTitle: "The service is temporarily unavailable",
    temporarilyUnavailable: "The dashboard cannot check your session right now. You are still signed in; please try again in a moment.",
  },
  accountMenu: {
    settings: "Settings",
    signOut: "Sign out",
    signingOut: "Signing out…",
    /** Sign out pressed while the page is still loading its scripts. */
    signsOutOnceLoaded: "Signing out as soon as the page has loaded…",
    signOutFailed: "You could not be signed out. {reason}",
  },
  signedOutPage: {
    title: "Signed out",
    siteSignedOut: "You are also signed out of {site}.",
    siteStillSignedIn: "You are still signed in at {site}. On a shared computer, open {site} and sign out there too.",
    siteStillSignedInAround:
      "You are still signed in at {site}. On a shared computer, also sign out of {site} itself, on the page around this panel.",
    siteUnconfirmed: "The dashboard could not confirm that {site} ended your sign-in there: you may still be signed in at {site}.",
    openSite: "Open {site}",
    // How a sentence names the site (siteCalled in lib/i18n): by its own name, or "the site" when it gives none.
    namedSite: "{name}",
    theSite: "the site",
  },
  emptyStates: {
    browseCourses: "Browse courses on {site}",
    seeEvents: "See upcoming events",
  },
  courseProgress: {
    watchAgain: "Watch again",
    // The Overview's link to the courses ending soon, on the Courses page: one course, or several.
    seeAllOne: "See it on the Courses page",
    seeAll: "See all {count}\u00a0courses",
  },
  pageTitles: {
    signedIn: "Signed in",
    notFound: "Page not found",
    notFoundBody: "This page does not exist.",
    description: "Your enrolled courses, orders and event registrations in one place.",
  },
  sessions: {
    title: "Where you're signed in",
    signOutConfirmTitle: "Sign out of the dashboard in this panel?",
    signOutConfirm: "Yes, sign out",
    signOutCancel: "Cancel",
    signOutTooSoon: "That press came just as this appeared, so nothing was signed out. Press again if you meant it.",
  },
} as const;
