/**
 * The Account API: the schema of docs/architecture.md section 5, served with the reference `graphql` package, for member tokens that
 * carry `account:read` and are bound to this origin.
 */
import type { Context, Hono } from "hono";
import {
  buildASTSchema,
  defaultFieldResolver,
  execute,
  GraphQLError,
  GraphQLScalarType,
  Kind,
  parse,
  specifiedRules,
  validate,
  visit,
} from "graphql";
import type { DocumentNode, FieldNode, GraphQLFieldResolver, GraphQLSchema, SelectionSetNode } from "graphql";
import { coverPath, getAccountData, SITE_UTC_OFFSET_MINUTES } from "./data/account";
import { electiveCourse } from "./data/catalog";
import type { EnrollmentData, EventRegistrationData, OrderData } from "./data/account";
import { authenticateResourceRequest } from "./dpop";
import { insufficientScopeResponse, invalidTokenResponse, NO_STORE_HEADERS } from "./http-util";
import { findMemberById } from "./seed";
import type { DemoMember } from "./seed";
import type { SandboxState } from "./state";
import type { GraphqlServer } from "./knobs";

export const ACCOUNT_SCHEMA_SDL = /* GraphQL */ `
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
  expireDate: DateTime
  hasLifetimeAccess: Boolean!
  completionPercentage: Int
  lastWatchedLecture: LastWatchedLecture
}
type LastWatchedLecture { lectureId: ID!  positionSeconds: Int!  title: String  watchedAt: DateTime }
type OrderConnection { nodes: [Order!]!  pageInfo: PageInfo!  totalCount: Int! }
type Order {
  id: ID!  tradeNo: String!  state: String!
  currency: String!  amount: Float!  refundedAmount: Float  paidAt: DateTime  createdAt: DateTime!
  paymentUrl: String            # where a not_paid order is paid on the site (optional)
  lineItems: [OrderLineItem!]!
}
type OrderLineItem { name: String!  amount: Float!  itemType: String! }
type EventRegistrationConnection { nodes: [EventRegistration!]!  pageInfo: PageInfo!  totalCount: Int! }
type EventRegistration { id: ID!  state: String!  registeredAt: DateTime!  event: Event! }
type Event { id: ID!  title: String!  startTime: DateTime!  endTime: DateTime  isAllDay: Boolean!  location: String  url: String }
scalar DateTime
`;

/** What `graphqlSeedFieldsOnly` removes: every field of the schema beyond the seed's. */
export const NON_SEED_FIELDS: readonly string[] = [
  "Viewer.name",
  "Viewer.orders",
  "Viewer.eventRegistrations",
  "EnrolledCourseConnection.pageInfo",
  "EnrolledCourseConnection.totalCount",
  "EnrolledCourse.name",
  "EnrolledCourse.imageUrl",
  "EnrolledCourse.completionPercentage",
  "LastWatchedLecture.title",
  "LastWatchedLecture.watchedAt",
];
const MAX_BODY_TOKENS = 5_000;

/**
 * How the Account API writes a DateTime: `rfc3339`, `2025-03-01T20:00:00+08:00`; as sites also do,
 * `basicOffset`, `2025-03-01T20:00:00+0800` (PHP's DATE_ISO8601, the knob `dateTimesBasicOffset`), or
 * `withoutOffset`, the site's wall-clock time alone, `2025-03-01T20:00:00` (the knob `dateTimesWithoutOffset`).
 */
export type DateTimeForm = "rfc3339" | "basicOffset" | "withoutOffset";

/** ISO 8601 with the site's offset, in `form`. */
export function formatDateTime(date: Date, offsetMinutes = SITE_UTC_OFFSET_MINUTES, form: DateTimeForm = "rfc3339"): string {
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes >= 0 ? "+" : "-";
  const abs = Math.abs(offsetMinutes);
  const [hours, minutes] = [String(Math.floor(abs / 60)).padStart(2, "0"), String(abs % 60).padStart(2, "0")];
  const offset = { rfc3339: `${sign}${hours}:${minutes}`, basicOffset: `${sign}${hours}${minutes}`, withoutOffset: "" }[form];
  return `${shifted.toISOString().slice(0, 19)}${offset}`;
}

function dateTimeScalar(form: DateTimeForm): GraphQLScalarType {
  return new GraphQLScalarType({
    name: "DateTime",
    description: "ISO 8601 date and time with offset",
    serialize(value) {
      if (value instanceof Date) return formatDateTime(value, SITE_UTC_OFFSET_MINUTES, form);
      throw new GraphQLError("DateTime cannot represent this value");
    },
    parseValue(value) {
      if (typeof value !== "string" || Number.isNaN(Date.parse(value))) throw new GraphQLError("DateTime must be an ISO 8601 string");
      return new Date(value);
    },
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING || Number.isNaN(Date.parse(ast.value))) throw new GraphQLError("DateTime must be an ISO 8601 string");
      return new Date(ast.value);
    },
  });
}

const schemaCache = new Map<string, GraphQLSchema>();

/** The amounts of money a `Decimal` scalar writes as strings (the `decimalAmounts` knob). */
const AMOUNT_FIELDS = new Set(["Order.amount", "Order.refundedAmount", "OrderLineItem.amount"]);

/**
 * The schema, without the fields named by the `graphqlMissingFields` knob, its DateTimes written in `dateTimeForm`;
 * with `nullableItems` (the `graphqlUnavailableItems` knob), the items of every connection's `nodes` nullable;
 * with `decimalAmounts`, its amounts of money a `Decimal` scalar written as a string ("19.99").
 */
export function accountSchema(
  missingFields: readonly string[],
  dateTimeForm: DateTimeForm = "rfc3339",
  nullableItems = false,
  decimalAmounts = false,
): GraphQLSchema {
  const key = `${[...missingFields].sort().join(",")}|${dateTimeForm}|${nullableItems}|${decimalAmounts}`;
  const cached = schemaCache.get(key);
  if (cached) return cached;
  let document = parse(decimalAmounts ? `${ACCOUNT_SCHEMA_SDL}\nscalar Decimal` : ACCOUNT_SCHEMA_SDL);
  if (decimalAmounts) {
    document = visit(document, {
      ObjectTypeDefinition(node) {
        const fields = node.fields?.map((field) => {
          if (!AMOUNT_FIELDS.has(`${node.name.value}.${field.name.value}`)) return field;
          const decimal = { kind: Kind.NAMED_TYPE, name: { kind: Kind.NAME, value: "Decimal" } } as const;
          return { ...field, type: field.type.kind === Kind.NON_NULL_TYPE ? { ...field.type, type: decimal } : decimal };
        });
        return { ...node, fields };
      },
    });
  }
  if (nullableItems) {
    document = visit(document, {
      FieldDefinition(node) {
        const list = node.type.kind === Kind.NON_NULL_TYPE ? node.type.type : undefined;
        if (node.name.value !== "nodes" || list?.kind !== Kind.LIST_TYPE || list.type.kind !== Kind.NON_NULL_TYPE) return undefined;
        return { ...node, type: { ...node.type, type: { ...list, type: list.type.type } } };
      },
    });
  }
  if (missingFields.length > 0) {
    const drop = (typeName: string, fieldName: string) =>
      missingFields.some((entry) => entry === `${typeName}.${fieldName}` || (entry === fieldName && typeName === "Viewer"));
    document = visit(document, {
      ObjectTypeDefinition(node) {
        const fields = node.fields?.filter((field) => !drop(node.name.value, field.name.value));
        return fields && fields.length > 0 ? { ...node, fields } : undefined;
      },
    });
  }
  const schema = buildASTSchema(document);
  const dateTime = schema.getType("DateTime");
  if (dateTime instanceof GraphQLScalarType) {
    const scalar = dateTimeScalar(dateTimeForm);
    dateTime.serialize = scalar.serialize.bind(scalar);
    dateTime.parseValue = scalar.parseValue.bind(scalar);
    dateTime.parseLiteral = scalar.parseLiteral.bind(scalar);
  }
  const decimal = schema.getType("Decimal");
  if (decimal instanceof GraphQLScalarType) decimal.serialize = (value) => String(value);
  schemaCache.set(key, schema);
  return schema;
}

interface PageArgs {
  first?: number | null;
  after?: string | null;
}

/** What a page's cursors depend on: the sandbox's clock, and how long the site accepts its cursors. */
interface CursorRules {
  maxPageSize: number;
  /** The `cursorTtlSeconds` knob: 0, cursors are good for ever; else refused once this many seconds old. */
  cursorTtlSeconds: number;
  /** The `cursorMinLength` knob: each cursor is padded to at least this many characters. */
  cursorMinLength: number;
  now: number;
}

/** An opaque cursor: the offset of a page's last item and when the cursor was handed out (padded when asked). */
function encodeCursor(offset: number, rules: CursorRules): string {
  const plain = `cursor:v1:${offset}:${rules.now}`;
  // Base64url writes 4 characters for every 3 bytes.
  const padding = Math.max(0, Math.ceil((rules.cursorMinLength * 3) / 4) - plain.length - 1);
  return Buffer.from(padding > 0 ? `${plain}:${"x".repeat(padding)}` : plain).toString("base64url");
}

function decodeCursor(cursor: string, rules: CursorRules): number {
  const [, offset, issuedAt] = /^cursor:v1:(\d{1,9}):(\d{1,15})(?::x+)?$/.exec(Buffer.from(cursor, "base64url").toString("utf8")) ?? [];
  // A site whose cursors expire refuses an old one with the same error as any cursor it cannot read.
  const expired = rules.cursorTtlSeconds > 0 && rules.now - Number(issuedAt) > rules.cursorTtlSeconds * 1000;
  if (!offset || !issuedAt || expired) throw new GraphQLError("after is not a valid cursor", { extensions: { code: "BAD_USER_INPUT" } });
  return Number(offset);
}

/**
 * Cursor paging over a list; `first` must lie in 1..maxPageSize (the `maxPageSize` knob), and `after` must be
 * a cursor this site handed out, not older than the `cursorTtlSeconds` knob allows. Cursors are as long as
 * the `cursorMinLength` knob asks.
 */
export function paginate<T>(items: readonly T[], args: PageArgs, rules: CursorRules) {
  const { maxPageSize } = rules;
  const first = args.first ?? 20;
  if (!Number.isInteger(first) || first < 1 || first > maxPageSize) {
    throw new GraphQLError(`first must be between 1 and ${maxPageSize}`, {
      extensions: { code: "BAD_USER_INPUT", maxPageSize },
    });
  }
  const start = args.after === undefined || args.after === null ? 0 : decodeCursor(args.after, rules) + 1;
  const nodes = items.slice(start, start + first);
  const lastIndex = start + nodes.length - 1;
  return {
    nodes,
    totalCount: items.length,
    pageInfo: {
      hasNextPage: lastIndex + 1 < items.length,
      endCursor: nodes.length > 0 ? encodeCursor(lastIndex, rules) : null,
    },
  };
}

/**
 * The `newOrders` knob: orders the member placed since the seed, newest first (a course bought in another
 * tab while the dashboard is open). They go to the top of the list, so a cursor handed out before points
 * one item earlier than it did: the next page repeats the item at the seam, as on any site that pages by
 * position.
 */
function ordersPlacedMeanwhile(member: DemoMember, count: number, now: number): OrderData[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `${member.id}-new-${index + 1}`,
    tradeNo: `DA${new Date(now).toISOString().slice(0, 10).replaceAll("-", "")}NEW${index + 1}`,
    state: "paid",
    currency: "TWD",
    amount: 1200,
    refundedAmount: null,
    paidAt: new Date(now - index * 60_000),
    createdAt: new Date(now - index * 60_000),
    lineItems: [{ name: "Watercolour basics", amount: 1200, itemType: "CurriculumPlan" }],
  }));
}

/**
 * The `extraEnrollments` knob: enrollments beyond the member's own, each in a course of its own ("Elective
 * 1", "Elective 2"...), with lifetime access and never started, as a member with an all-access pass has on
 * a large catalog.
 */
function enrollmentsBeyondTheSeed(count: number): EnrollmentData[] {
  return Array.from({ length: count }, (_, index) => electiveCourse(index + 1)).map((course) => ({
    slug: course.slug,
    name: course.name,
    imagePath: coverPath(course.slug),
    expireDate: null,
    hasLifetimeAccess: true,
    completionPercentage: 0,
    lastWatchedLecture: null,
  }));
}

function viewerRoot(state: SandboxState, member: DemoMember) {
  let cached: ReturnType<typeof getAccountData> | undefined;
  const data = () => (cached ??= getAccountData(member.email, state.now()));
  const cursorRules = (): CursorRules => ({
    maxPageSize: state.knobs.maxPageSize,
    cursorTtlSeconds: state.knobs.cursorTtlSeconds,
    cursorMinLength: state.knobs.cursorMinLength,
    now: state.now(),
  });
  const enrollment = (item: EnrollmentData) => ({
    slug: item.slug,
    name: item.name,
    imageUrl: state.knobs.relativeCoverUrls ? item.imagePath : `${state.knobs.coverOrigin || state.issuer}${item.imagePath}`,
    expireDate: item.expireDate,
    hasLifetimeAccess: item.hasLifetimeAccess,
    completionPercentage: item.completionPercentage,
    lastWatchedLecture: item.lastWatchedLecture,
  });
  return {
    viewer: () => ({
      id: member.id,
      email: member.email,
      name: member.name,
      enrolledCourses: (args: PageArgs) =>
        paginate([...data().enrollments, ...enrollmentsBeyondTheSeed(state.knobs.extraEnrollments)].map(enrollment), args, cursorRules()),
      // Newest first, as a site lists a member's orders; a not-paid order links to where it is paid.
      orders: (args: PageArgs) =>
        paginate(
          [...data().orders, ...ordersPlacedMeanwhile(member, state.knobs.newOrders, state.now())]
            .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
            .map((order: OrderData) => ({
              ...order,
              paymentUrl: order.state === "not_paid" ? `${state.issuer}/orders/${encodeURIComponent(order.tradeNo)}/pay` : null,
            })),
          args,
          cursorRules(),
        ),
      eventRegistrations: (args: PageArgs) => paginate<EventRegistrationData>(data().eventRegistrations, args, cursorRules()),
    }),
  };
}

type GraphQLBody = { query: string; operationName: string | undefined; variables: Record<string, unknown> | undefined };

function parseBody(raw: unknown): GraphQLBody | string {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return "The body must be a JSON object";
  const body = raw as Record<string, unknown>;
  if (typeof body.query !== "string" || body.query.trim() === "") return "The body needs a string field query";
  if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== "string") {
    return "operationName must be a string";
  }
  const variables = body.variables;
  if (variables !== undefined && variables !== null && (typeof variables !== "object" || Array.isArray(variables))) {
    return "variables must be an object";
  }
  return {
    query: body.query,
    operationName: typeof body.operationName === "string" ? body.operationName : undefined,
    variables: (variables ?? undefined) as Record<string, unknown> | undefined,
  };
}

/** The Account API's refusal of a token, in the form the knob `accountApiTokenRefusal` names. */
function refuseToken(c: Context, state: SandboxState, description: string): Response {
  switch (state.knobs.accountApiTokenRefusal) {
    case "challenge":
      return invalidTokenResponse(c, state, description);
    case "no_challenge":
      return c.json({ error: "invalid_token", error_description: description }, 401, { ...NO_STORE_HEADERS });
    case "graphql_401":
    case "graphql_200": {
      // Hot Chocolate's code for it; Apollo Server's and most others'.
      const code = state.knobs.graphqlServer === "hot-chocolate" ? "AUTH_NOT_AUTHENTICATED" : "UNAUTHENTICATED";
      const errors = [{ message: description, extensions: { code } }];
      const status = state.knobs.accountApiTokenRefusal === "graphql_401" ? 401 : 200;
      return c.json({ errors, data: null }, status, { ...NO_STORE_HEADERS });
    }
  }
}

/**
 * What a query costs, priced as graphql-ruby and Hot Chocolate price one: each field 1, and a field with
 * `first` (a connection) that many times what it selects; fragments are counted where they are spread.
 */
function queryCost(document: DocumentNode, variables: Record<string, unknown>): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  }
  const firstOf = (field: FieldNode): number => {
    const argument = field.arguments?.find((entry) => entry.name.value === "first")?.value;
    const value =
      argument?.kind === Kind.VARIABLE ? variables[argument.name.value] : argument?.kind === Kind.INT ? Number(argument.value) : 1;
    return typeof value === "number" && value > 0 ? value : 1;
  };
  const costOf = (selectionSet: SelectionSetNode | undefined, depth: number): number => {
    if (!selectionSet || depth > 20) return 0;
    let total = 0;
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) total += 1 + firstOf(selection) * costOf(selection.selectionSet, depth + 1);
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += costOf(selection.selectionSet, depth + 1);
      else total += costOf(fragments.get(selection.name.value), depth + 1);
    }
    return total;
  };
  const operation = document.definitions.find((definition) => definition.kind === Kind.OPERATION_DEFINITION);
  return operation ? costOf(operation.selectionSet, 0) : 0;
}

/** A query over the cost limit, refused as the GraphQL server the knob `graphqlServer` names refuses it. */
function overCostAnswer(cost: number, limit: number, server: GraphqlServer): { status: 200 | 400; error: unknown } {
  switch (server) {
    case "graphql-js":
      // graphql-query-complexity, the validation rule Apollo Server's and Yoga's docs point to.
      return { status: 400, error: { message: `The query exceeds the maximum complexity of ${limit}. Actual complexity is ${cost}` } };
    case "graphql-ruby":
      return { status: 200, error: { message: `Query has complexity of ${cost}, which exceeds max complexity of ${limit}` } };
    case "graphql-java":
      return {
        status: 200,
        error: { message: `maximum query complexity exceeded ${cost} > ${limit}`, extensions: { classification: "ExecutionAborted" } },
      };
    case "hot-chocolate":
      return {
        status: 200,
        error: {
          message: "The maximum allowed field cost was exceeded.",
          extensions: { code: "HC0047", fieldCost: cost, maxFieldCost: limit },
        },
      };
  }
}

/** graphql-js's words for a field the schema lacks. */
const UNKNOWN_FIELD = /^Cannot query field "(\w+)" on type "(\w+)"\./;

/**
 * Validation errors as the GraphQL server the knob `graphqlServer` names answers them: its status, and for
 * a field the schema lacks its own words and extensions (other errors keep graphql-js's form).
 */
function validationAnswer(errors: readonly GraphQLError[], server: GraphqlServer): { status: 200 | 400; errors: unknown[] } {
  const status = server === "graphql-ruby" || server === "graphql-java" ? 200 : 400;
  return {
    status,
    errors: errors.map((error) => {
      const { message, locations } = error.toJSON();
      const match = UNKNOWN_FIELD.exec(message);
      if (!match || server === "graphql-js") return error.toJSON();
      const [, field, type] = match;
      switch (server) {
        case "graphql-ruby":
          return {
            message: `Field '${field}' doesn't exist on type '${type}'`,
            locations,
            extensions: { code: "undefinedField", typeName: type, fieldName: field },
          };
        case "graphql-java":
          return {
            message: `Validation error (FieldUndefined@[${field}]) : Field '${field}' in type '${type}' is undefined`,
            locations,
            extensions: { classification: "ValidationError" },
          };
        case "hot-chocolate":
          return {
            message: `The field \`${field}\` does not exist on the type \`${type}\`.`,
            locations,
            extensions: { type, field, responseName: field },
          };
      }
    }),
  };
}

function graphqlError(c: Context, status: 400 | 405 | 415, message: string): Response {
  return c.json({ errors: [{ message }] }, status, { ...NO_STORE_HEADERS });
}

async function handleGraphQL(c: Context, state: SandboxState): Promise<Response> {
  // Bearer, or DPoP with a proof of the token's key and its ath (RFC 9449 section 7).
  const auth = await authenticateResourceRequest(c, state, refuseToken);
  if (auth.kind === "none") return refuseToken(c, state, "An access token is required");
  if (auth.kind === "refused") return auth.response;
  const record = auth.record;
  // RFC 8707: the token must have been issued for this origin.
  if (record.resource !== state.issuer) {
    return refuseToken(c, state, "The access token was issued for another resource");
  }
  if (!record.scopes.includes("account:read")) return insufficientScopeResponse(c, state, "account:read");
  const member = findMemberById(record.memberId);
  if (!member) return refuseToken(c, state, "The member of this token no longer exists");

  const contentType = (c.req.header("content-type") ?? "").split(";")[0]?.trim().toLowerCase();
  if (contentType !== "application/json") return graphqlError(c, 415, "Content-Type must be application/json");
  let raw: unknown;
  try {
    raw = JSON.parse(await c.req.text());
  } catch {
    return graphqlError(c, 400, "The body is not valid JSON");
  }
  const body = parseBody(raw);
  if (typeof body === "string") return graphqlError(c, 400, body);

  let document: DocumentNode;
  try {
    document = parse(body.query, { maxTokens: MAX_BODY_TOKENS });
  } catch (error) {
    const message = error instanceof GraphQLError ? error.message : "The query could not be parsed";
    return graphqlError(c, 400, message);
  }
  const schema = accountSchema(
    state.knobs.graphqlSeedFieldsOnly ? [...state.knobs.graphqlMissingFields, ...NON_SEED_FIELDS] : state.knobs.graphqlMissingFields,
    state.knobs.dateTimesWithoutOffset ? "withoutOffset" : state.knobs.dateTimesBasicOffset ? "basicOffset" : "rfc3339",
    state.knobs.graphqlUnavailableItems.length > 0,
    state.knobs.decimalAmounts,
  );
  const validationErrors = validate(schema, document, specifiedRules, { maxErrors: 20 });
  if (validationErrors.length > 0) {
    const { status, errors } = validationAnswer(validationErrors, state.knobs.graphqlServer);
    return c.json({ errors }, status, { ...NO_STORE_HEADERS });
  }
  const maxCost = state.knobs.graphqlMaxCost;
  const cost = maxCost > 0 ? queryCost(document, body.variables ?? {}) : 0;
  if (cost > maxCost) {
    const { status, error } = overCostAnswer(cost, maxCost, state.knobs.graphqlServer);
    return c.json({ errors: [error] }, status, { ...NO_STORE_HEADERS });
  }
  const result = await execute({
    schema,
    document,
    rootValue: viewerRoot(state, member),
    variableValues: body.variables,
    operationName: body.operationName,
    fieldResolver: failingFieldResolver(state.knobs.graphqlFieldErrors, state.knobs.graphqlUnavailableItems),
  });
  if (!("data" in result) || result.data === undefined) {
    // Request errors (unknown operation, bad variables) have no data.
    return c.json({ errors: (result.errors ?? []).map((error) => error.toJSON()) }, 400, { ...NO_STORE_HEADERS });
  }
  // A serializer that writes every field (`writesNulls`) writes `"errors": null` and `"extensions": null` where
  // the spec leaves them out (GraphQL spec section 7.1.2, 7.1.1).
  const unset = state.knobs.writesNulls ? { errors: null, extensions: null } : {};
  return c.json({ ...unset, ...(result.errors ? { errors: result.errors.map((error) => error.toJSON()) } : {}), data: result.data }, 200, {
    ...NO_STORE_HEADERS,
  });
}

/**
 * The `graphqlFieldErrors` knob: the named fields' resolver throws, as a failing backend behind one field
 * does; graphql-js then answers a partial result. A real server masks the cause, so the message says nothing.
 */
/** The identity of a list's item, as `graphqlUnavailableItems` names it: a course's slug, an order's or a registration's id. */
const ITEM_IDENTITY: Readonly<Record<string, string>> = { EnrolledCourse: "slug", Order: "id", EventRegistration: "id" };

/**
 * The resolver of the `graphqlFieldErrors` and `graphqlUnavailableItems` knobs: a named field fails for
 * every item; a named item fails at its identity (non-null), which nulls the item in its list.
 */
function failingFieldResolver(
  failing: readonly string[],
  unavailable: readonly string[],
): GraphQLFieldResolver<unknown, unknown> | undefined {
  if (failing.length === 0 && unavailable.length === 0) return undefined;
  return (source, args, context, info) => {
    if (failing.includes(`${info.parentType.name}.${info.fieldName}`)) throw new Error("Internal server error");
    const value = defaultFieldResolver(source, args, context, info);
    if (ITEM_IDENTITY[info.parentType.name] === info.fieldName && typeof value === "string" && unavailable.includes(value)) {
      throw new GraphQLError("This item is no longer available", { extensions: { code: "NOT_FOUND" } });
    }
    return value;
  };
}

export function registerAccountRoutes(app: Hono, state: SandboxState): void {
  app.post("/account/graphql", (c) => handleGraphQL(c, state));
  app.on(["GET", "PUT", "PATCH", "DELETE"], "/account/graphql", (c) => {
    c.header("Allow", "POST");
    return graphqlError(c, 405, "Use POST");
  });
}
