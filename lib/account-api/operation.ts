import "server-only";

import type { z } from "zod";

import { OPTIONAL_ACCOUNT_FIELDS } from "./schema";

/** One named GraphQL query the BFF sends on the member's behalf (each account page has one: ./pages/). */
export interface AccountOperation<TData> {
  /** One named query; its name, read from the document, is what failure logs show (no separate operationName is sent). */
  document: string;
  /** The form its answer must have before anything reads it (./fragments.ts): a site's answer is checked, never trusted. */
  answer: z.ZodType<TData>;
  /** Variables that are page sizes (`first`): lowered to the cap the site named. None when absent. */
  pageSizeVariables?: readonly string[];
  /** Fields ("Type.field") the operation's page can do without, when the site lacks them. None when absent. */
  optionalFields?: ReadonlySet<string>;
}

/** The fields every page can do without (./schema.ts), and the `extra` ones this operation can lose too. */
export function optionalFields(...extra: string[]): ReadonlySet<string> {
  return new Set([...OPTIONAL_ACCOUNT_FIELDS, ...extra]);
}

/** The operation of a page that reads one connection with `$first` and `$after`, and can lose what every page can. */
export function connectionOperation<TData>(document: string, answer: z.ZodType<TData>): AccountOperation<TData> {
  return { document, answer, pageSizeVariables: ["first"], optionalFields: optionalFields() };
}
