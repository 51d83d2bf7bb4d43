import "server-only";

import { getNamedType, isObjectType, type GraphQLFormattedError, type GraphQLObjectType } from "graphql";

import { assumedAccountSchema, FIELDS_SHOWN_AS_UNKNOWN } from "./schema";

/**
 * What a field of {@link FIELDS_SHOWN_AS_UNKNOWN} holds where the site failed to resolve it. No JSON value can
 * be this, so nothing a site sends reads as unknown, and an unknown is never read as the site's null.
 */
export const FIELD_UNKNOWN: unique symbol = Symbol("the site failed to give this field");

/** What was kept of a partial answer: the data, and the fields ("Type.field") the site failed to give. */
export interface KeptPartialAnswer {
  data: Record<string, unknown>;
  failedFields: string[];
  /** How many items of a connection's list the failures nulled (left out of the list, and counted there). */
  itemsLeftOut: number;
}

/**
 * A GraphQL partial result (GraphQL spec, "Handling Field Errors"): the site answered the query but could
 * not resolve some fields, which it sends as null with an error naming each one's path. The answer is kept
 * when every such field is one the operation's page can do without:
 * - an optional field is removed, and the page shows what it shows for a site without the field (no name,
 *   no progress bar), as it does for a field the whole site lacks (./schema-fitting.ts);
 * - a field of FIELDS_SHOWN_AS_UNKNOWN becomes FIELD_UNKNOWN, also when its null came from one of its own
 *   non-null fields (a failed `lectureId` nulls its `lastWatchedLecture`);
 * - an item of a connection's `nodes` that the error's null reached (on a site whose schema makes the items
 *   nullable, a non-null field's error nulls its item) stays null: the list's form leaves it out and counts
 *   it (./fragments.ts), and the page says how many items the site could not give.
 * Anything else is undefined, and the query has failed: an error on another field, an error without a
 * path, or a null that reached past the field to a parent the page needs (a non-null field's error nulls
 * the nearest nullable parent, up to the whole answer).
 */
export function keptPartialAnswer(
  data: unknown,
  errors: readonly GraphQLFormattedError[],
  optionalFields: ReadonlySet<string>,
): KeptPartialAnswer | undefined {
  if (!isRecord(data) || errors.length === 0) return undefined;
  const failedFields = new Set<string>();
  const changes: NulledField[] = [];
  // Where each nulled list item is: two errors in one item name it once.
  const itemsLeftOut = new Set<string>();
  for (const error of errors) {
    const failure = nulledField(data, error.path, optionalFields);
    if (!failure) return undefined;
    failedFields.add(failure.field);
    if ("item" in failure) itemsLeftOut.add(failure.item);
    else changes.push(failure);
  }
  for (const { parent, key, value } of changes) {
    if (value === undefined) delete parent[key];
    else parent[key] = value;
  }
  return { data, failedFields: [...failedFields].sort(), itemsLeftOut: itemsLeftOut.size };
}

/**
 * Where a failed field's null is (`parent[key]`: the field, or the field above it that its null reached),
 * what it becomes (removed, undefined, or FIELD_UNKNOWN), and the field that failed ("Type.field").
 */
interface NulledField {
  parent: Record<string, unknown>;
  key: string;
  value: undefined | typeof FIELD_UNKNOWN;
  field: string;
}

/**
 * An item of a connection's list that a failed field's null reached: left null, for the list's form to
 * leave out and count (./fragments.ts). `item` is its place in the answer; `field` the field that failed.
 */
interface NulledItem {
  item: string;
  field: string;
}

/**
 * The longest response path of a field the dashboard's documents ask for is 6 (`viewer`, `enrolledCourses`,
 * `nodes`, an index, `lastWatchedLecture`, `lectureId`); the bound leaves room for deeper documents.
 */
export const MAX_FIELD_PATH_LENGTH = 16;

/** The items of a connection ("EnrolledCourseConnection.nodes"): a list a page shows item by item. */
const CONNECTION_ITEMS = /^\w+Connection\.nodes$/;

/**
 * Where an error's null is, when the page can do without it: the failed field itself when it is optional,
 * the nearest field above it that is null when that one can be shown as unknown, or the item of a
 * connection's list that the null reached. Undefined otherwise.
 */
function nulledField(
  data: Record<string, unknown>,
  path: readonly (string | number)[] | undefined,
  optionalFields: ReadonlySet<string>,
): NulledField | NulledItem | undefined {
  // The path is the site's: one deeper than any field the documents ask for names none of them, and is
  // not walked (each step reads the path from the root: a path of the whole answer's length would hold
  // the process for as long as its square; OWASP ASVS 5 V15.2.2, resource-demanding work).
  if (!path || path.length > MAX_FIELD_PATH_LENGTH) return undefined;
  for (let end = path.length; end > 0; end -= 1) {
    const key = path[end - 1];
    const parent = valueAt(data, path.slice(0, end - 1));
    if (typeof key === "number" && Array.isArray(parent) && parent[key] === null) {
      // An item of a connection whose items the site's schema makes nullable (GitHub's are): the rest of the
      // list is kept, and the list says how many items the site could not give.
      const list = fieldAt(path.slice(0, end - 1));
      const field = fieldAt(path);
      if (!list || !CONNECTION_ITEMS.test(list) || field === undefined) return undefined;
      return { item: path.slice(0, end).join("."), field };
    }
    if (typeof key !== "string" || !isRecord(parent)) continue;
    if (parent[key] !== null) return undefined;
    const nulled = fieldAt(path.slice(0, end));
    const field = fieldAt(path);
    if (nulled === undefined || field === undefined) return undefined;
    if (end === path.length && optionalFields.has(nulled)) return { parent, key, value: undefined, field };
    return FIELDS_SHOWN_AS_UNKNOWN.has(nulled) ? { parent, key, value: FIELD_UNKNOWN, field } : undefined;
  }
  return undefined;
}

/**
 * The optional fields whose leaving out would take every error of a failed answer with it: for each
 * error, the shallowest field on its path that is optional (an error deep under `Viewer.eventRegistrations`
 * whose null reached `viewer` names it). Undefined when an error's path goes through no optional field.
 */
export function optionalFieldsOnErrorPaths(
  errors: readonly GraphQLFormattedError[],
  optionalFields: ReadonlySet<string>,
): string[] | undefined {
  if (errors.length === 0) return undefined;
  const fields = new Set<string>();
  for (const { path } of errors) {
    if (!path || path.length > MAX_FIELD_PATH_LENGTH) return undefined;
    let found: string | undefined;
    for (let end = 1; end <= path.length && found === undefined; end += 1) {
      const field = typeof path[end - 1] === "string" ? fieldAt(path.slice(0, end)) : undefined;
      if (field !== undefined && optionalFields.has(field)) found = field;
    }
    if (found === undefined) return undefined;
    fields.add(found);
  }
  return [...fields].sort();
}

/**
 * The "Type.field" a response path names, read in the assumed schema from the query root. The dashboard's
 * documents use no aliases (tests/unit/account-api/partial-answer.test.ts checks), so each key of the
 * path is a field's name.
 */
function fieldAt(path: readonly (string | number)[]): string | undefined {
  let type: GraphQLObjectType | undefined = assumedAccountSchema().getQueryType() ?? undefined;
  let field: string | undefined;
  for (const key of path) {
    if (typeof key === "number") continue;
    if (!type) return undefined;
    const definition = type.getFields()[key];
    if (!definition) return undefined;
    field = `${type.name}.${key}`;
    const named = getNamedType(definition.type);
    type = isObjectType(named) ? named : undefined;
  }
  return field;
}

function valueAt(data: unknown, path: readonly (string | number)[]): unknown {
  let value = data;
  for (const key of path) {
    if (typeof key === "number" ? !Array.isArray(value) : !isRecord(value)) return undefined;
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
