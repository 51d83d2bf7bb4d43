/**
 * Client-safe UI types for the member dashboard. They are what the BFF data routes answer and what
 * components render: small, already reshaped from the Account API (see lib/account), never the raw
 * GraphQL shape. All instants are ISO 8601 strings with an offset, exactly as the site sent them.
 */

/** How long a member keeps access to a course. */
export type CourseAccess =
  /** Access never ends. */
  | { kind: "lifetime" }
  /** Access ends at `expiresAt` (ISO 8601); it may already lie in the past. */
  | { kind: "until"; expiresAt: string };

/** Where the member stopped in a course, with the link that takes them back there. */
export interface LastWatched {
  /** The lecture's id on the site. */
  lectureId: string;
  /** Playback position in whole seconds. */
  positionSeconds: number;
  /** The lecture's title, when the site gives it. */
  title: string | null;
  /** When the member last watched it (ISO 8601), when the site gives it. */
  watchedAt: string | null;
  /** Absolute lecture URL built from LECTURE_URL_TEMPLATE (http or https only). */
  resumeUrl: string;
}

/** One course the member is enrolled in. */
export interface CourseEnrollment {
  /** The course's slug on the site; unique per member. */
  slug: string;
  /** Display name; falls back to the slug when the site gives none. */
  name: string;
  /** Cover image URL, when the site gives one. */
  imageUrl: string | null;
  /** The course's page on the site, from COURSE_URL_TEMPLATE (http or https only): Start and Renew link there. */
  courseUrl: string | null;
  access: CourseAccess;
  /** 0..100, or null when the site does not track progress. */
  completionPercentage: number | null;
  /** Where the member left off; null when never opened, and when `lastWatchedUnknown`. */
  lastWatched: LastWatched | null;
  /** Set when the site failed to say where the member left off (an answer kept in part): the course offers "Open course", not Start. */
  lastWatchedUnknown?: true;
}

/** A page of a cursor-paged list. */
export interface Page<T> {
  items: T[];
  /** How many items exist across all pages. */
  totalCount: number;
  /** The cursor for the next page (`?after=`), or null on the last page. */
  nextCursor: string | null;
  /**
   * Items of this page the site listed but could not give (a course deleted under an enrollment, on a site
   * whose lists may hold such gaps): not in `items`; the page says how many. Absent when there are none.
   */
  itemsUnavailable?: number;
}

export type CoursesPage = Page<CourseEnrollment>;

/** Known order states; the site may send others, which the UI shows humanised. */
export type KnownOrderState = "paid" | "not_paid" | "refunded" | "failed" | "expired" | "manual_enrolled";

export interface OrderLineItem {
  name: string;
  /** In the order's currency, major units (e.g. 1200 for NT$1,200). */
  amount: number;
  /** CurriculumPlan | MembershipPlan | Ticket | DigitalProduct | … */
  itemType: string;
}

export interface Order {
  id: string;
  /** The merchant trade number the member sees on receipts. */
  tradeNo: string;
  /** One of {@link KnownOrderState}, or another value the site introduced. */
  state: string;
  /** ISO 4217 code, e.g. "TWD". */
  currency: string;
  /** Total in major units of `currency`. */
  amount: number;
  /** Refunded amount in major units, or null when nothing was refunded. */
  refundedAmount: number | null;
  paidAt: string | null;
  createdAt: string;
  /** Where an order awaiting payment is paid on the site, when the site says (an optional field). */
  paymentUrl: string | null;
  lineItems: OrderLineItem[];
}

export type OrdersPage = Page<Order>;

/** Known registration states; others are shown humanised. */
export type KnownRegistrationState = "enrolled" | "checked_in" | "no_show" | "cancelled";

export interface DashboardEvent {
  id: string;
  title: string;
  /** ISO 8601. For all-day events only the calendar date written in it counts. */
  startTime: string;
  /** ISO 8601, or null when the site gives no end. */
  endTime: string | null;
  isAllDay: boolean;
  /** A physical place, when there is one. */
  location: string | null;
  /** An http(s) link (online meeting or event page); other schemes are dropped when reshaping. */
  url: string | null;
}

export interface EventRegistration {
  id: string;
  /** One of {@link KnownRegistrationState}, or another value the site introduced. */
  state: string;
  /** When the member registered; null when the site does not tell. */
  registeredAt: string | null;
  event: DashboardEvent;
}

export type EventsPage = Page<EventRegistration>;

/** Everything the overview page shows, from one GraphQL operation. */
export interface Overview {
  /** The member's name, or their email when the site has no name. */
  name: string;
  /** Up to three courses in progress (watched, not finished, access not ended), most recently watched first. */
  continueWatching: CourseEnrollment[];
  /**
   * Courses that may be in progress too (started or not known to be, not finished, access not ended), but the
   * site failed to say where the member left off (`lastWatchedUnknown`): 0 on a whole answer.
   */
  continueWatchingUnknown: number;
  /** Enrollments whose access ends within 30 days (not yet ended), soonest first. */
  endingSoon: CourseEnrollment[];
  /**
   * Enrollments past the overview's bound, not considered above: 0 when every one was, null when
   * there are more but the site does not say how many.
   */
  coursesLeftOut: number | null;
  /** At most three upcoming, non-cancelled registrations, soonest first; null when the site does not provide registrations. */
  upcomingEvents: EventRegistration[] | null;
  /** Present when the site failed to give the registrations this time (upcomingEvents is then null). */
  upcomingEventsFailed?: true;
  /**
   * Enrollments the site listed but could not give (Page's `itemsUnavailable`): not considered above, and
   * the overview says how many. Absent when there are none.
   */
  coursesUnavailable?: number;
  /** Registrations the site listed but could not give, likewise; absent when there are none. */
  registrationsUnavailable?: number;
}

/** One tool an AI assistant connected to the site's MCP server can use, as the server describes it. */
export interface ConnectionTool {
  /** The tool's machine name, e.g. "list_my_orders". */
  name: string;
  /** A short human title from the server, when it gives one. */
  title?: string;
  /** What the tool does, in the server's words, when it gives them. */
  description?: string;
  /**
   * "member" when only the member's sign-in unlocks it (it works with the member's own data),
   * "public" when anyone gets it (the site's catalog).
   */
  access: "member" | "public";
}

/** Why the site offers no MCP connection right now. */
export type ConnectionsUnavailableReason =
  /** The site has no MCP server at `/mcp` (404, 405, 410, 501). */
  | "not_offered"
  /** Something answers at `/mcp`, but not as an MCP server this app understands. */
  | "incompatible"
  /** The site did not answer in time, or answered 5xx: worth trying again later. */
  | "unreachable"
  /**
   * The site's MCP server limits how often it answers (429, RFC 6585 section 4, or a 403 that says so, as
   * GitHub's rate limits do): worth trying again in a moment, or after the wait it named.
   */
  | "busy"
  /** The MCP server's answer is larger than the dashboard reads. */
  | "too_large"
  /** The MCP server refuses the member's token, freshly refreshed, that the Account API accepts. */
  | "refused";

/** What `GET /api/account/connections` answers: what an AI assistant connected to the site can do (never a token). */
export type Connections =
  | {
      available: true;
      /** The URL a member pastes into an assistant, e.g. "https://school.example.com/mcp". */
      mcpUrl: string;
      serverName: string;
      serverVersion: string;
      tools: ConnectionTool[];
      /**
       * The language the server says it wrote the tools' titles and descriptions in (its Content-Language),
       * asked for in the member's; absent when it does not say.
       */
      toolsLanguage?: string;
      /** True when the member's sign-in unlocks tools of their own (at least one tool has access "member"). */
      memberTools: boolean;
    }
  | {
      available: false;
      mcpUrl: string;
      reason: ConnectionsUnavailableReason;
      /** For "busy": the wait the MCP server named (its Retry-After, or the reset of a used-up rate limit), when it named one. */
      retryAfterSeconds?: number;
    };
