import "server-only";

import { buildSchema, type GraphQLSchema } from "graphql";

/**
 * The Account API schema the dashboard assumes (docs/architecture.md section 5). Only the seed's fields are facts; the
 * rest may be missing on a real site (./schema-fitting.ts drops the optional ones it lacks).
 */
export const ASSUMED_ACCOUNT_SCHEMA_SDL = /* GraphQL */ `
type Query { viewer: Viewer! }
type Viewer {
  id: ID!
  email: String!
  name: String
  enrolledCourses(first: Int = 20, after: String): EnrolledCourseConnection!
  orders(first: Int = 20, after: String): OrderConnection!
  eventRegistrations(first: Int = 20, after: String): EventRegistrationConnection!
}
type PageInfo { hasNextPage: Boolean!  endCursor: String }
type EnrolledCourseConnection { nodes: [EnrolledCourse!]!  pageInfo: PageInfo!  totalCount: Int! }
type EnrolledCourse {
  slug: String!  name: String  imageUrl: String
  expireDate: DateTime          # null when hasLifetimeAccess
  hasLifetimeAccess: Boolean!
  completionPercentage: Int     # 0..100
  lastWatchedLecture: LastWatchedLecture
}
type LastWatchedLecture { lectureId: ID!  positionSeconds: Int!  title: String  watchedAt: DateTime }
type OrderConnection { nodes: [Order!]!  pageInfo: PageInfo!  totalCount: Int! }
type Order {
  id: ID!  tradeNo: String!  state: String!     # paid | not_paid | refunded | failed | expired | manual_enrolled
  currency: String!  amount: Float!  refundedAmount: Float  paidAt: DateTime  createdAt: DateTime!
  paymentUrl: String            # where a not_paid order is paid on the site (optional)
  lineItems: [OrderLineItem!]!
}
type OrderLineItem { name: String!  amount: Float!  itemType: String! }  # CurriculumPlan | MembershipPlan | Ticket | DigitalProduct | ...
type EventRegistrationConnection { nodes: [EventRegistration!]!  pageInfo: PageInfo!  totalCount: Int! }
type EventRegistration { id: ID!  state: String!  registeredAt: DateTime!  event: Event! }  # enrolled | checked_in | no_show | cancelled
type Event { id: ID!  title: String!  startTime: DateTime!  endTime: DateTime  isAllDay: Boolean!  location: String  url: String }
scalar DateTime   # ISO 8601 with offset
`;

/** Fields every page can do without ("Type.field"). An operation may add its own (e.g. the overview's events). */
export const OPTIONAL_ACCOUNT_FIELDS: readonly string[] = [
  "Viewer.name",
  "EnrolledCourseConnection.pageInfo",
  "EnrolledCourseConnection.totalCount",
  "OrderConnection.pageInfo",
  "OrderConnection.totalCount",
  "EventRegistrationConnection.pageInfo",
  "EventRegistrationConnection.totalCount",
  "EnrolledCourse.name",
  "EnrolledCourse.imageUrl",
  "EnrolledCourse.completionPercentage",
  "LastWatchedLecture.title",
  "LastWatchedLecture.watchedAt",
  "Order.refundedAmount",
  "Order.paidAt",
  "Order.lineItems",
  "Order.paymentUrl",
  "EventRegistration.registeredAt",
  "Event.endTime",
  "Event.isAllDay",
  "Event.location",
  "Event.url",
];

/**
 * Fields a page needs that it can still show as unknown for one item when the site fails to resolve them in
 * a partial answer: where a course was left off. Unlike an optional field, such a field is never left out of
 * the query, and its failure is never read as its null ("never opened"): ./partial-answer.ts marks it
 * FIELD_UNKNOWN, and the course says its progress could not be loaded.
 */
export const FIELDS_SHOWN_AS_UNKNOWN: ReadonlySet<string> = new Set(["EnrolledCourse.lastWatchedLecture"]);

let assumedSchema: GraphQLSchema | undefined;

/** The assumed schema, built once (per bundle: it is the same for all). */
export function assumedAccountSchema(): GraphQLSchema {
  assumedSchema ??= buildSchema(ASSUMED_ACCOUNT_SCHEMA_SDL);
  return assumedSchema;
}
