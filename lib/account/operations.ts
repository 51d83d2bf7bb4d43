import "server-only";

import { COURSES_DOCUMENT } from "./courses";
import { EVENTS_DOCUMENT } from "./events";
import { ORDERS_DOCUMENT } from "./orders";
import { OVERVIEW_DOCUMENT } from "./overview";
import { OPTIONAL_ACCOUNT_FIELDS } from "./schema";

/** The pages that read the Account API, each through exactly one named operation. */
export type AccountPageKey = "overview" | "courses" | "orders" | "events";

export interface AccountOperation {
  /** One named query; its name, read from the document, is what failure logs show (no separate operationName is sent). */
  document: string;
  /** Variables that are page sizes (`first`): lowered to the cap the site named. None when absent. */
  pageSizeVariables?: readonly string[];
  /** Fields ("Type.field") the operation's page can do without, when the site lacks them. None when absent. */
  optionalFields?: ReadonlySet<string>;
}

const optional = (...extra: string[]): ReadonlySet<string> => new Set([...OPTIONAL_ACCOUNT_FIELDS, ...extra]);

/** The only GraphQL the BFF sends on the member's behalf: one named operation per page. */
export const ACCOUNT_OPERATIONS: Readonly<Record<AccountPageKey, AccountOperation>> = {
  // The overview still greets and shows courses on a site without event registrations.
  overview: {
    document: OVERVIEW_DOCUMENT,
    pageSizeVariables: ["coursesFirst", "eventsFirst"],
    optionalFields: optional("Viewer.eventRegistrations"),
  },
  courses: { document: COURSES_DOCUMENT, pageSizeVariables: ["first"], optionalFields: optional() },
  orders: { document: ORDERS_DOCUMENT, pageSizeVariables: ["first"], optionalFields: optional() },
  events: { document: EVENTS_DOCUMENT, pageSizeVariables: ["first"], optionalFields: optional() },
};
