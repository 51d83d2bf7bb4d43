import "server-only";

import { getNamedType, isObjectType, type GraphQLFormattedError, type GraphQLObjectType } from "graphql";

import { assumedAccountSchema } from "./schema";

/** What was kept of a partial answer: the data, and the fields ("Type.field") the site failed to give. */
export interface KeptPartialAnswer {
  data: Record<string, unknown>;
  failedFields: string[];
}

/**
 * A GraphQL partial result (GraphQL spec, "Handling Field Errors"): the site answered the query but could
 * not resolve some fields, which it sends as null with an error naming each one's path. When every such
 * field is optional for the operation, the answer is kept as if the site lacked those fields for those
 * items: each is removed, and the page shows what it shows for a site without the field (no name, no
 * progress bar), as it does for a field the whole site lacks (./schema-fitting.ts). Anything else is
 * undefined, and the query has failed: an error on a required field (say `lastWatchedLecture`, whose null
 * would read "never opened"), an error without a path, or a null that reached past the field to its parent
 * (a non-null field's error nulls the nearest nullable parent, so an item or the whole answer is gone).
 */
export function keptPartialAnswer(
  data: unknown,
  errors: readonly GraphQLFormattedError[],
  optionalFields: ReadonlySet<string>,
): KeptPartialAnswer | undefined {
  if (!isRecord(data) || errors.length === 0) return undefined;
  const failedFields = new Set<string>();
  const failed: { parent: Record<string, unknown>; key: string }[] = [];
  for (const error of errors) {
    const path = error.path;
    const key = path?.at(-1);
    if (!path || typeof key !== "string") return undefined;
    const field = fieldAt(path);
    if (field === undefined || !optionalFields.has(field)) return undefined;
    const parent = valueAt(data, path.slice(0, -1));
    if (!isRecord(parent) || parent[key] !== null) return undefined;
    failedFields.add(field);
    failed.push({ parent, key });
  }
  for (const { parent, key } of failed) delete parent[key];
  return { data, failedFields: [...failedFields].sort() };
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
