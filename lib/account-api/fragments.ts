import "server-only";

import { z } from "zod";

import { FIELD_UNKNOWN } from "./partial-answer";
import { siteDateTime } from "./site-date-time";

/** What every connection the dashboard reads selects besides its nodes: the site's total and where to go on. */
export const CONNECTION_PAGING_FIELDS = /* GraphQL */ `totalCount
        pageInfo {
          hasNextPage
          endCursor
        }`;

/** The fields of an enrollment every dashboard operation selects. */
export const ENROLLED_COURSE_FIELDS = /* GraphQL */ `
  fragment DashboardEnrolledCourse on EnrolledCourse {
    slug
    name
    imageUrl
    expireDate
    hasLifetimeAccess
    completionPercentage
    lastWatchedLecture {
      lectureId
      positionSeconds
      title
      watchedAt
    }
  }
`;

/** The fields of an event registration every dashboard operation selects. */
export const EVENT_REGISTRATION_FIELDS = /* GraphQL */ `
  fragment DashboardEventRegistration on EventRegistration {
    id
    state
    registeredAt
    event {
      id
      title
      startTime
      endTime
      isAllDay
      location
      url
    }
  }
`;

/**
 * A DateTime of the schema (ISO 8601 with an offset) as the dashboard reads it: a string `Date.parse`
 * understands. Anything else would be shown as "Invalid Date" or break a sort. One without an offset is
 * read in the site's zone and passed on with that zone's offset (./site-date-time.ts).
 */
export const DATE_TIME = z.string().transform((value, context) => {
  const read = Number.isNaN(Date.parse(value)) ? undefined : siteDateTime(value);
  if (read !== undefined) return read;
  context.addIssue({ code: "custom", message: "expected a date and time" });
  return z.NEVER;
});

/**
 * An identifier (`ID` in the schema we assume): a string, as GraphQL serialises an ID, or a number from a
 * site whose schema types it `Int` (the site documents no types), read as its decimal string.
 */
export const IDENTIFIER = z.union([z.string(), z.number()]).transform(String);

/**
 * An amount of money (`Float` in the schema we assume): a number, or a decimal written as a string by a
 * site whose schema types it as a `Decimal` scalar (Shopify's, graphql-ruby's BigDecimal, so that no
 * cent is lost to floating point), read as its number. Only a plain decimal is read: no exponent, no
 * thousands separators, no currency sign.
 */
export const AMOUNT = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d{1,15}(\.\d{1,12})?$/, "a decimal number")
    .transform(Number),
]);

/**
 * The form of an `EnrolledCourse` as selected by {@link ENROLLED_COURSE_FIELDS}, which every answer is
 * checked against before anything reads it (./client.ts). Fields beyond the seed's are optional: absent
 * when the site lacks them (./schema-fitting.ts leaves them out of the query).
 */
export const RAW_ENROLLED_COURSE = z.object({
  slug: z.string(),
  name: z.string().nullish(),
  imageUrl: z.string().nullish(),
  expireDate: DATE_TIME.nullable(),
  hasLifetimeAccess: z.boolean(),
  completionPercentage: z.number().nullish(),
  lastWatchedLecture: z
    .object({
      lectureId: IDENTIFIER,
      positionSeconds: z.number(),
      title: z.string().nullish(),
      watchedAt: DATE_TIME.nullish(),
    })
    .nullable()
    // Where the site failed to resolve it in an answer kept in part (./partial-answer.ts).
    .or(z.custom<typeof FIELD_UNKNOWN>((value) => value === FIELD_UNKNOWN)),
});

export type RawEnrolledCourse = z.infer<typeof RAW_ENROLLED_COURSE>;

/** An enrollment's identity in a list: its course. */
export const enrollmentKey = (node: RawEnrolledCourse): string => node.slug;

/** The form of an `EventRegistration` as selected by {@link EVENT_REGISTRATION_FIELDS}. */
export const RAW_EVENT_REGISTRATION = z.object({
  id: IDENTIFIER,
  state: z.string(),
  registeredAt: DATE_TIME.optional(),
  event: z.object({
    id: IDENTIFIER,
    title: z.string(),
    startTime: DATE_TIME,
    endTime: DATE_TIME.nullish(),
    isAllDay: z.boolean().optional(),
    location: z.string().nullish(),
    url: z.string().nullish(),
  }),
});

export type RawEventRegistration = z.infer<typeof RAW_EVENT_REGISTRATION>;

/** A registration's identity in a list. */
export const registrationKey = (node: RawEventRegistration): string => node.id;

const RAW_PAGE_INFO = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

export type RawPageInfo = z.infer<typeof RAW_PAGE_INFO>;

/** A connection as selected by the dashboard's operations; `pageInfo` and `totalCount` are absent on a site without them. */
export interface RawConnection<TNode> {
  nodes: TNode[];
  pageInfo?: RawPageInfo | null;
  totalCount?: number | null;
  /**
   * Items the site listed as null and are left out of `nodes`: on a site whose schema makes a connection's
   * items nullable, an item it cannot give (a course deleted under an enrollment) comes as null, with an
   * error naming it or without (./partial-answer.ts keeps such an answer). 0 (or absent) on a whole answer.
   */
  itemsUnavailable?: number;
}

/** The form of a connection of `node`s, as {@link RawConnection}: its null items are left out and counted. */
export function rawConnection<TNode>(node: z.ZodType<TNode>): z.ZodType<RawConnection<TNode>> {
  return z
    .object({ nodes: z.array(node.nullable()), pageInfo: RAW_PAGE_INFO.nullish(), totalCount: z.number().nullish() })
    .transform(({ nodes, ...connection }) => {
      const given = nodes.filter((item): item is TNode => item !== null);
      return { ...connection, nodes: given, itemsUnavailable: nodes.length - given.length };
    });
}
