import "server-only";

import { randomUUID } from "node:crypto";

/** The header that carries a request's id: in from a load balancer or the proxy, out on every answer. */
export const REQUEST_ID_HEADER = "x-request-id";

/** A request id from a load balancer or a caller is kept only when it is short and plain (no log injection). */
const WELL_FORMED_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request's id: the one it brought when well formed, else a new one. */
export function requestIdOf(headers: Headers): string {
  const incoming = headers.get(REQUEST_ID_HEADER);
  return incoming !== null && WELL_FORMED_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
