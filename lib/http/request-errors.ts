import "server-only";

import { isAccountPageKey, type AccountPageKey } from "@/lib/account-api/registry";
import { LayerError } from "@/lib/errors/layer-error";

/**
 * What is wrong with a request itself, before anything is asked of the site: a page that does not exist,
 * a cursor that cannot be one. lib/http/error-responses.ts maps each code to its answer.
 */
export type RequestErrorCode = "not_found" | "invalid_cursor";

export class RequestError extends LayerError<RequestErrorCode> {
  override name = "RequestError";
}

/**
 * The longest `?after=` cursor read. A site's cursors may be signed or encrypted and run to hundreds of
 * characters (the sandbox's `cursorMinLength` knob); anything longer than this is not one.
 */
const MAX_CURSOR_LENGTH = 4096;

/** The `after` cursor of a paged data request (null: from the start), or a RequestError "invalid_cursor". */
export function pageCursorOf(searchParams: URLSearchParams): string | null {
  const after = searchParams.get("after");
  if (after !== null && (after.length === 0 || after.length > MAX_CURSOR_LENGTH)) {
    throw new RequestError("invalid_cursor", "The page cursor is not valid.");
  }
  return after;
}

/** `value` as an account page's key, or a RequestError "not_found". */
export function accountPageKeyOf(value: string): AccountPageKey {
  if (!isAccountPageKey(value)) throw new RequestError("not_found", "There is no such account page.");
  return value;
}
