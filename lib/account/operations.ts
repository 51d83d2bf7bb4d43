import "server-only";

import { COURSES_DOCUMENT, COURSES_OPERATION_NAME } from "./courses";
import { EVENTS_DOCUMENT, EVENTS_OPERATION_NAME } from "./events";
import { ORDERS_DOCUMENT, ORDERS_OPERATION_NAME } from "./orders";
import { OVERVIEW_DOCUMENT, OVERVIEW_OPERATION_NAME } from "./overview";

/** The pages that read the Account API, each through exactly one named operation. */
export type AccountPageKey = "overview" | "courses" | "orders" | "events";

export interface AccountOperation {
  document: string;
  operationName: string;
}

/** The only GraphQL the BFF sends on the member's behalf: one named operation per page. */
export const ACCOUNT_OPERATIONS: Readonly<Record<AccountPageKey, AccountOperation>> = {
  overview: { document: OVERVIEW_DOCUMENT, operationName: OVERVIEW_OPERATION_NAME },
  courses: { document: COURSES_DOCUMENT, operationName: COURSES_OPERATION_NAME },
  orders: { document: ORDERS_DOCUMENT, operationName: ORDERS_OPERATION_NAME },
  events: { document: EVENTS_DOCUMENT, operationName: EVENTS_OPERATION_NAME },
};
