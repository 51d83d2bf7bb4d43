/**
 * What the sandbox site sells, with prices: every catalog course (a curriculum plan), the membership plans, event
 * tickets and digital products. The demo members' orders (`./account.ts`) use these names and amounts.
 */
import { COURSES } from "./catalog";
import type { Course } from "./catalog";

export type Currency = "TWD" | "USD";

export interface Price {
  currency: Currency;
  amount: number;
}

export interface CoursePlan extends Price {
  /** How long the purchase gives access: `lifetime`, `1 year`, `6 months`. */
  access: string;
}

export interface Product extends Price {
  name: string;
  kind: "MembershipPlan" | "Ticket" | "DigitalProduct";
  /** e.g. "per month", "per year", "one-off". */
  billing: string;
  description: string;
}

const FEATURED_PLANS: Record<string, CoursePlan> = {
  "watercolor-foundations": { currency: "TWD", amount: 3200, access: "1 year" },
  "product-photography-at-home": { currency: "TWD", amount: 2400, access: "1 year" },
  "mandarin-for-travelers": { currency: "TWD", amount: 2800, access: "1 year" },
  "data-analysis-with-python": { currency: "USD", amount: 129, access: "lifetime" },
  "ux-writing-essentials": { currency: "TWD", amount: 1900, access: "lifetime" },
  "sourdough-baking-masterclass": { currency: "TWD", amount: 2600, access: "1 year" },
  "personal-finance-101": { currency: "TWD", amount: 990, access: "1 year" },
  "guitar-for-absolute-beginners": { currency: "TWD", amount: 2200, access: "6 months" },
  "illustrator-icon-design": { currency: "TWD", amount: 1800, access: "6 months" },
  "public-speaking-confidence": { currency: "TWD", amount: 1500, access: "lifetime" },
};

/** Generated courses are priced by level (their slug prefix). */
const LEVEL_PRICES: readonly (readonly [prefix: string, amount: number])[] = [
  ["foundations-of-", 1200],
  ["intermediate-", 1600],
  ["advanced-", 2000],
  ["weekend-workshop-", 900],
  ["hands-on-lab-", 1400],
  ["masterclass-", 2800],
  ["bootcamp-", 4800],
];

export function coursePlan(course: Course): CoursePlan {
  const featured = FEATURED_PLANS[course.slug];
  if (featured) return featured;
  const level = LEVEL_PRICES.find(([prefix]) => course.slug.startsWith(prefix));
  return { currency: "TWD", amount: level?.[1] ?? 1500, access: "1 year" };
}

export const PRODUCTS: readonly Product[] = [
  {
    name: "Creative Club",
    kind: "MembershipPlan",
    currency: "TWD",
    amount: 499,
    billing: "per month",
    description: "Every art and design course while subscribed, plus monthly live critiques.",
  },
  {
    name: "All-access pass",
    kind: "MembershipPlan",
    currency: "TWD",
    amount: 24000,
    billing: "per year",
    description: `Every course in the catalog (${COURSES.length} today) for a year.`,
  },
  {
    name: "Live Q&A: Watercolor skies",
    kind: "Ticket",
    currency: "TWD",
    amount: 600,
    billing: "one-off",
    description: "A 90-minute online session with the Watercolor Foundations instructor.",
  },
  {
    name: "Sketch walk at Daan Forest Park",
    kind: "Ticket",
    currency: "TWD",
    amount: 350,
    billing: "one-off",
    description: "A guided three-hour outdoor sketching morning in Taipei.",
  },
  {
    name: "Pandas cheat sheet (PDF)",
    kind: "DigitalProduct",
    currency: "USD",
    amount: 20,
    billing: "one-off",
    description: "Eight printable pages of pandas idioms from Data Analysis with Python.",
  },
  {
    name: "Sourdough starter guide (e-book)",
    kind: "DigitalProduct",
    currency: "USD",
    amount: 39,
    billing: "one-off",
    description: "Raising, feeding and rescuing a starter, with a troubleshooting chart.",
  },
];

/** `NT$3,200` or `US$129`. */
export function formatPrice(price: Price): string {
  const symbol = price.currency === "TWD" ? "NT$" : "US$";
  return `${symbol}${price.amount.toLocaleString("en-US")}`;
}
