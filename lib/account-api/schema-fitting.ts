import "server-only";

import { parse, print, TypeInfo, visit, visitWithTypeInfo, type DocumentNode, type GraphQLFormattedError } from "graphql";

import { processWide } from "@/lib/server/process-wide";

import { assumedAccountSchema } from "./schema";

/**
 * What this site's Account API lacks of the schema we assume. Apart from the seed's fields (`slug`,
 * `expireDate`, `hasLifetimeAccess`, `lastWatchedLecture { lectureId positionSeconds }`, the viewer's
 * `id` and `email`), every field of docs/architecture.md section 5 is an assumption: when the site rejects a query
 * because an optional field does not exist, the field is remembered for the process (every bundle of it:
 * `processWide`) and left out of every later query, and the page shows what it has without it.
 */
const { missingAtSite, documents } = processWide("schema-fitting", () => ({
  missingAtSite: new Set<string>(),
  /** The fitted documents, by what they leave out and the document. */
  documents: new Map<string, string>(),
}));

/** No field names: an operation without optional fields, a fitting that leaves nothing more out. */
export const NO_FIELDS: ReadonlySet<string> = new Set();

/** The fields this process learned the site lacks, as "Type.field". */
export function fieldsMissingAtSite(): string[] {
  return [...missingAtSite].sort();
}

/** Tests only: forget what was learned. */
export function forgetMissingFieldsForTests(): void {
  missingAtSite.clear();
  documents.clear();
}

/** A name in a message, in the quotes each server writes it in. */
const NAME = String.raw`["'\x60](\w+)["'\x60]`;

/**
 * How GraphQL servers word "the schema has no such field" (the field's name first, then its type's):
 * graphql-js and the servers on it, webonyx/graphql-php, gqlgen, Absinthe and Sangria (`Cannot query field
 * "imageUrl" on type "EnrolledCourse".`); graphql-ruby (`Field 'imageUrl' doesn't exist on type
 * 'EnrolledCourse'`); graphql-java (`Field 'imageUrl' in type 'EnrolledCourse' is undefined`); Hot
 * Chocolate (``The field `imageUrl` does not exist on the type `EnrolledCourse`.``); async-graphql and
 * Juniper (`Unknown field "imageUrl" on type "EnrolledCourse"`).
 */
const UNKNOWN_FIELD_MESSAGES: readonly RegExp[] = [
  new RegExp(`Cannot query field ${NAME} on type ${NAME}`),
  new RegExp(`Field ${NAME} doesn't exist on type ${NAME}`),
  new RegExp(`Field ${NAME} in type ${NAME} is undefined`),
  new RegExp(`The field ${NAME} does not exist on the type ${NAME}`),
  new RegExp(`Unknown field ${NAME} on type ${NAME}`),
];

const PLAIN_NAME = /^\w{1,64}$/;

/**
 * The field ("Type.field") a validation error says the site's schema lacks, if it says one: from
 * graphql-ruby's structured `extensions` (`code: "undefinedField"`, `typeName`, `fieldName`), else from the
 * message in any server's words. Only names of a plain form are read.
 */
function missingFieldOf(error: GraphQLFormattedError): string | undefined {
  const { code, typeName, fieldName } = (error.extensions ?? {}) as Record<string, unknown>;
  if (code === "undefinedField" && typeof typeName === "string" && typeof fieldName === "string") {
    return PLAIN_NAME.test(typeName) && PLAIN_NAME.test(fieldName) ? `${typeName}.${fieldName}` : undefined;
  }
  for (const pattern of UNKNOWN_FIELD_MESSAGES) {
    const match = pattern.exec(error.message);
    if (match) return `${match[2]}.${match[1]}`;
  }
  return undefined;
}

/**
 * Learns from a refused query which fields the site lacks. Returns true when the errors name at least
 * one missing field not known before and every missing field they name is optional for this
 * operation: the caller asks once more without them (other errors of the same answer, such as a
 * fragment on a type the site also lacks, go away with those fields or fail the next attempt). False
 * when a required field is missing or no missing field is named: the query has failed.
 */
export function learnMissingFieldsFromRefusal(errors: readonly GraphQLFormattedError[], optionalFields: ReadonlySet<string>): boolean {
  const named = errors.flatMap((error) => missingFieldOf(error) ?? []);
  if (named.length === 0 || !named.every((field) => optionalFields.has(field))) return false;
  const fresh = named.filter((field) => !missingAtSite.has(field));
  for (const field of fresh) missingAtSite.add(field);
  return fresh.length > 0;
}

function withoutUnused(document: DocumentNode): DocumentNode {
  const spreads = new Set<string>();
  const variables = new Set<string>();
  visit(document, {
    FragmentSpread: (node) => void spreads.add(node.name.value),
    VariableDefinition: () => false,
    Variable: (node) => void variables.add(node.name.value),
  });
  return visit(document, {
    FragmentDefinition: (node) => (spreads.has(node.name.value) ? undefined : null),
    VariableDefinition: (node) => (variables.has(node.variable.name.value) ? undefined : null),
  });
}

/**
 * `document` without the fields the site lacks among `optionalFields`, and without `alsoLeftOut` (this
 * call's own: fields the site failed to resolve in its first answer). A field left with no selection goes
 * too, and so do fragments and variables nothing uses any more. Cached for the process.
 */
export function documentForSite(
  document: string,
  optionalFields: ReadonlySet<string>,
  alsoLeftOut: ReadonlySet<string> = NO_FIELDS,
): string {
  const drop = [...new Set([...missingAtSite, ...alsoLeftOut])].filter((field) => optionalFields.has(field)).sort();
  if (drop.length === 0) return document;
  const key = `${drop.join(",")}\n${document}`;
  const cached = documents.get(key);
  if (cached) return cached;
  const typeInfo = new TypeInfo(assumedAccountSchema());
  let next = visit(
    parse(document),
    visitWithTypeInfo(typeInfo, {
      Field: {
        enter(node) {
          const parent = typeInfo.getParentType();
          return parent && drop.includes(`${parent.name}.${node.name.value}`) ? null : undefined;
        },
        leave(node) {
          return node.selectionSet && node.selectionSet.selections.length === 0 ? null : undefined;
        },
      },
    }),
  );
  // Removing a fragment can leave another (or a variable) unused: repeat until nothing changes.
  for (let pass = 0; pass < 5; pass += 1) {
    const cleaned = withoutUnused(next);
    if (cleaned.definitions.length === next.definitions.length && print(cleaned) === print(next)) break;
    next = cleaned;
  }
  const printed = print(next);
  documents.set(key, printed);
  return printed;
}
