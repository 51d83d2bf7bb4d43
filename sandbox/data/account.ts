/**
 * Account data of the demo members, computed relative to `now` on every call so that "access ends in 3 days"
 * stays true whenever the demo runs. Shapes follow the Account API schema (docs/architecture.md section 5), with dates kept
 * as `Date` objects; the GraphQL layer serializes them.
 */
import { courseAt, courseBySlug, COURSES, FEATURED_COURSE_COUNT, lectureAt } from "./catalog";
import type { Course } from "./catalog";

export interface LastWatchedLectureData {
  lectureId: string;
  positionSeconds: number;
  title: string;
  watchedAt: Date;
}

export interface EnrollmentData {
  slug: string;
  name: string;
  /** Path of the cover image on the sandbox origin. */
  imagePath: string;
  expireDate: Date | null;
  hasLifetimeAccess: boolean;
  completionPercentage: number | null;
  lastWatchedLecture: LastWatchedLectureData | null;
}

export type OrderState = "paid" | "not_paid" | "refunded" | "failed" | "expired" | "manual_enrolled";
export type LineItemType = "CurriculumPlan" | "MembershipPlan" | "Ticket" | "DigitalProduct";

export interface OrderData {
  id: string;
  tradeNo: string;
  state: OrderState;
  currency: "TWD" | "USD";
  amount: number;
  refundedAmount: number | null;
  paidAt: Date | null;
  createdAt: Date;
  lineItems: { name: string; amount: number; itemType: LineItemType }[];
}

export type RegistrationState = "enrolled" | "checked_in" | "no_show" | "cancelled";

export interface EventRegistrationData {
  id: string;
  state: RegistrationState;
  registeredAt: Date;
  event: {
    id: string;
    title: string;
    startTime: Date;
    endTime: Date | null;
    isAllDay: boolean;
    location: string | null;
    url: string | null;
  };
}

export interface AccountData {
  enrollments: EnrollmentData[];
  orders: OrderData[];
  eventRegistrations: EventRegistrationData[];
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The site's local offset: Taipei, UTC+8, no daylight saving. */
export const SITE_UTC_OFFSET_MINUTES = 8 * 60;
/** The same as the zone a dashboard names in SITE_TIME_ZONE. */
export const SITE_TIME_ZONE = "Asia/Taipei";

export function coverPath(slug: string): string {
  return `/covers/${slug}.svg`;
}

function at(now: number, offsetMs: number): Date {
  // Round to the minute so repeated queries within a minute agree.
  return new Date(Math.floor((now + offsetMs) / MINUTE) * MINUTE);
}

/** Midnight (site time) `days` days from now, as an instant. */
function siteMidnight(now: number, days: number): Date {
  const offset = SITE_UTC_OFFSET_MINUTES * MINUTE;
  const localDayStart = Math.floor((now + offset) / DAY) * DAY;
  return new Date(localDayStart + days * DAY - offset);
}

/** `hour`:00 site time on the day `days` days from now. */
function siteTime(now: number, days: number, hour: number, minute = 0): Date {
  return new Date(siteMidnight(now, days).getTime() + hour * HOUR + minute * MINUTE);
}

function enrollment(
  course: Course,
  options: {
    expireDate: Date | null;
    completion: number | null;
    watched?: { lectureIndex: number; positionSeconds: number; watchedAt: Date };
  },
): EnrollmentData {
  const watched = options.watched;
  const lecture = watched ? lectureAt(course, watched.lectureIndex) : undefined;
  return {
    slug: course.slug,
    name: course.name,
    imagePath: coverPath(course.slug),
    expireDate: options.expireDate,
    hasLifetimeAccess: options.expireDate === null,
    completionPercentage: options.completion,
    lastWatchedLecture:
      watched && lecture
        ? {
            lectureId: lecture.id,
            positionSeconds: watched.positionSeconds,
            title: lecture.title,
            watchedAt: watched.watchedAt,
          }
        : null,
  };
}

function mayaData(now: number): AccountData {
  const enrollments: EnrollmentData[] = [
    enrollment(courseBySlug("watercolor-foundations"), {
      expireDate: at(now, 3 * DAY),
      completion: 64,
      watched: { lectureIndex: 3, positionSeconds: 754, watchedAt: at(now, -2 * HOUR) },
    }),
    enrollment(courseBySlug("data-analysis-with-python"), {
      expireDate: null,
      completion: 38,
      // Over an hour into the capstone lecture.
      watched: { lectureIndex: 5, positionSeconds: 3725, watchedAt: at(now, -1 * DAY - 3 * HOUR) },
    }),
    enrollment(courseBySlug("mandarin-for-travelers"), {
      expireDate: at(now, 40 * DAY),
      completion: 15,
      watched: { lectureIndex: 1, positionSeconds: 312, watchedAt: at(now, -4 * DAY) },
    }),
    enrollment(courseBySlug("product-photography-at-home"), {
      expireDate: at(now, -7 * DAY),
      completion: 100,
      watched: { lectureIndex: 4, positionSeconds: 1380, watchedAt: at(now, -12 * DAY) },
    }),
    enrollment(courseBySlug("ux-writing-essentials"), {
      expireDate: null,
      completion: 82,
      watched: { lectureIndex: 4, positionSeconds: 95, watchedAt: at(now, -6 * HOUR) },
    }),
    enrollment(courseBySlug("sourdough-baking-masterclass"), {
      expireDate: at(now, 180 * DAY),
      completion: 0,
    }),
    enrollment(courseBySlug("personal-finance-101"), {
      expireDate: at(now, 365 * DAY),
      completion: 50,
      watched: { lectureIndex: 2, positionSeconds: 0, watchedAt: at(now, -20 * DAY) },
    }),
    enrollment(courseBySlug("guitar-for-absolute-beginners"), {
      expireDate: at(now, 92 * DAY),
      completion: 21,
      watched: { lectureIndex: 4, positionSeconds: 2290, watchedAt: at(now, -9 * DAY) },
    }),
  ];

  const orders: OrderData[] = [
    {
      id: "order_5001",
      tradeNo: "",
      state: "paid",
      currency: "TWD",
      amount: 3200,
      refundedAmount: null,
      paidAt: at(now, -62 * DAY),
      createdAt: at(now, -62 * DAY - 5 * MINUTE),
      lineItems: [{ name: "Watercolor Foundations — 1-year access", amount: 3200, itemType: "CurriculumPlan" }],
    },
    {
      id: "order_5002",
      tradeNo: "",
      state: "paid",
      currency: "USD",
      amount: 149,
      refundedAmount: null,
      paidAt: at(now, -40 * DAY),
      createdAt: at(now, -40 * DAY - 2 * MINUTE),
      lineItems: [
        { name: "Data Analysis with Python — lifetime access", amount: 129, itemType: "CurriculumPlan" },
        { name: "Pandas cheat sheet (PDF)", amount: 20, itemType: "DigitalProduct" },
      ],
    },
    {
      id: "order_5003",
      tradeNo: "",
      state: "refunded",
      currency: "TWD",
      amount: 1800,
      refundedAmount: 1800,
      paidAt: at(now, -30 * DAY),
      createdAt: at(now, -30 * DAY - 3 * MINUTE),
      lineItems: [{ name: "Icon Design in Illustrator — 6-month access", amount: 1800, itemType: "CurriculumPlan" }],
    },
    {
      id: "order_5004",
      tradeNo: "",
      state: "paid",
      currency: "TWD",
      amount: 499,
      refundedAmount: null,
      paidAt: at(now, -14 * DAY),
      createdAt: at(now, -14 * DAY - MINUTE),
      lineItems: [{ name: "Creative Club — monthly membership", amount: 499, itemType: "MembershipPlan" }],
    },
    {
      id: "order_5005",
      tradeNo: "",
      state: "paid",
      currency: "TWD",
      amount: 600,
      refundedAmount: null,
      paidAt: at(now, -5 * DAY),
      createdAt: at(now, -5 * DAY - 4 * MINUTE),
      lineItems: [{ name: "Live Q&A: Watercolor skies — ticket", amount: 600, itemType: "Ticket" }],
    },
    {
      id: "order_5006",
      tradeNo: "",
      state: "not_paid",
      currency: "USD",
      amount: 39,
      refundedAmount: null,
      paidAt: null,
      createdAt: at(now, -1 * DAY),
      lineItems: [{ name: "Sourdough starter guide (e-book)", amount: 39, itemType: "DigitalProduct" }],
    },
  ];

  const eventRegistrations: EventRegistrationData[] = [
    {
      id: "reg_9001",
      state: "enrolled",
      registeredAt: at(now, -5 * DAY),
      event: {
        id: "event_301",
        title: "Live Q&A: Watercolor skies",
        startTime: siteTime(now, 4, 20),
        endTime: siteTime(now, 4, 21, 30),
        isAllDay: false,
        location: null,
        url: "https://meet.example.com/demo-academy/watercolor-qa",
      },
    },
    {
      id: "reg_9002",
      state: "enrolled",
      registeredAt: at(now, -10 * DAY),
      event: {
        id: "event_302",
        title: "Sketch walk at Daan Forest Park",
        startTime: siteTime(now, 11, 9),
        endTime: siteTime(now, 11, 12),
        isAllDay: false,
        location: "Daan Forest Park, Gate 2, Xinsheng South Road, Taipei",
        url: null,
      },
    },
    {
      id: "reg_9003",
      state: "enrolled",
      registeredAt: at(now, -3 * DAY),
      event: {
        id: "event_303",
        title: "Demo Academy open studio day",
        startTime: siteMidnight(now, 18),
        endTime: null,
        isAllDay: true,
        location: "Demo Academy Studio, 3F, No. 12 Songren Road, Taipei",
        url: null,
      },
    },
    {
      id: "reg_9004",
      state: "checked_in",
      registeredAt: at(now, -30 * DAY),
      event: {
        id: "event_288",
        title: "Python office hours",
        startTime: siteTime(now, -16, 19),
        endTime: siteTime(now, -16, 20),
        isAllDay: false,
        location: null,
        url: "https://meet.example.com/demo-academy/python-office-hours",
      },
    },
    {
      id: "reg_9005",
      state: "cancelled",
      registeredAt: at(now, -20 * DAY),
      event: {
        id: "event_295",
        title: "Night market Mandarin meetup",
        startTime: siteTime(now, 7, 19),
        endTime: siteTime(now, 7, 21),
        isAllDay: false,
        location: "Raohe Street Night Market entrance, Taipei",
        url: null,
      },
    },
  ];

  return { enrollments, orders: withTradeNumbers(orders), eventRegistrations };
}

/** Trade numbers follow the platform's pattern: a prefix, the order date (site time) and a random-looking tail. */
function withTradeNumbers(orders: OrderData[]): OrderData[] {
  return orders.map((order, index) => {
    const local = new Date(order.createdAt.getTime() + SITE_UTC_OFFSET_MINUTES * MINUTE);
    const date = local.toISOString().slice(0, 10).replace(/-/g, "");
    const tail = (Number(order.id.replace(/\D/g, "")) * 7919 + index * 104729).toString(36).toUpperCase().slice(-4).padStart(4, "0");
    return { ...order, tradeNo: `DA${date}${tail}` };
  });
}

function kaiData(now: number): AccountData {
  const enrollments: EnrollmentData[] = [];
  for (let i = 0; i < 130; i += 1) {
    const course = courseAt(FEATURED_COURSE_COUNT + (i % (COURSES.length - FEATURED_COURSE_COUNT)));
    const lifetime = i % 9 === 0;
    const watched = i % 4 !== 3;
    enrollments.push(
      enrollment(course, {
        expireDate: lifetime ? null : at(now, ((i % 17) - 3) * 15 * DAY + DAY),
        completion: (i * 37) % 101,
        ...(watched
          ? {
              watched: {
                lectureIndex: i % course.lectures.length,
                positionSeconds: (i * 211) % 1500,
                watchedAt: at(now, -(i + 1) * 7 * HOUR),
              },
            }
          : {}),
      }),
    );
  }
  const orders: OrderData[] = [
    {
      id: "order_6101",
      tradeNo: "",
      state: "paid",
      currency: "TWD",
      amount: 24000,
      refundedAmount: null,
      paidAt: at(now, -120 * DAY),
      createdAt: at(now, -120 * DAY - 6 * MINUTE),
      lineItems: [{ name: "All-access pass — 1 year", amount: 24000, itemType: "MembershipPlan" }],
    },
  ];
  return { enrollments, orders: withTradeNumbers(orders), eventRegistrations: [] };
}

function oliviaData(now: number): AccountData {
  return {
    enrollments: [
      enrollment(courseBySlug("public-speaking-confidence"), {
        expireDate: null,
        completion: 100,
        watched: { lectureIndex: 4, positionSeconds: 610, watchedAt: at(now, -3 * DAY) },
      }),
    ],
    orders: [],
    eventRegistrations: [],
  };
}

const EMPTY: AccountData = { enrollments: [], orders: [], eventRegistrations: [] };

const BY_EMAIL: Record<string, (now: number) => AccountData> = {
  "maya@example.com": mayaData,
  "kai@example.com": kaiData,
  "olivia@example.com": oliviaData,
};

export function getAccountData(email: string, now: number): AccountData {
  const build = BY_EMAIL[email];
  return build ? build(now) : EMPTY;
}
