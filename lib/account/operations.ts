import "server-only";

import { COURSES_DOCUMENT, COURSES_OPERATION_NAME } from "./courses";
import { EVENTS_DOCUMENT, EVENTS_OPERATION_NAME } from "./events";
import { ORDERS_DOCUMENT, ORDERS_OPERATION_NAME } from "./orders";
import { OVERVIEW_DOCUMENT, OVERVIEW_OPERATION_NAME } from "./overview";
import { OPTIONAL_ACCOUNT_FIELDS } from "./schema";

/** The pages that read the Account API, each through exactly one named operation. */
export type AccountPageKey = "overview" | "courses" | "orders" | "events";

export interface AccountOperation {
  document: string;
  operationName: string;
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
    operationName: OVERVIEW_OPERATION_NAME,
    pageSizeVariables: ["coursesFirst", "eventsFirst"],
    optionalFields: optional("Viewer.eventRegistrations"),
  },
  courses: { document: COURSES_DOCUMENT, operationName: COURSES_OPERATION_NAME, pageSizeVariables: ["first"], optionalFields: optional() },
  orders: { document: ORDERS_DOCUMENT, operationName: ORDERS_OPERATION_NAME, pageSizeVariables: ["first"], optionalFields: optional() },
  events: { document: EVENTS_DOCUMENT, operationName: EVENTS_OPERATION_NAME, pageSizeVariables: ["first"], optionalFields: optional() },
};
