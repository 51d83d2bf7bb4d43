import "server-only";

import { LayerError } from "@/lib/errors/layer-error";

/**
 * What is wrong with a request itself, before anything is asked of the site: a page that does not exist,
 * a cursor that cannot be one, a body not in the form its route takes. lib/http/error-responses.ts maps
 * each code to its answer.
 */
export type RequestErrorCode = "not_found" | "invalid_cursor" | "invalid_session_choice" | "invalid_handoff_request";

export class RequestError extends LayerError<RequestErrorCode> {
  override name = "RequestError";
}

/**
 * The longest `?after=` cursor read, before it is opened (lib/account-api/page-cursor.ts). A site's
 * cursors may be signed or encrypted and run to thousands of characters (the sandbox's `cursorMinLength`
 * knob); sealed, they grow by a third and about 200 characters, so this takes a site's cursor of up to
 * about 7,000. It stays well under Node's 16 KiB for a request's line and headers, the member's cookie
 * included. Anything longer is not one of the dashboard's cursors.
 */
const MAX_CURSOR_LENGTH = 10_000;

/** The `after` cursor of a paged data request (null: from the start), or a RequestError "invalid_cursor". */
export function pageCursorOf(searchParams: URLSearchParams): string | null {
  const after = searchParams.get("after");
  if (after !== null && (after.length === 0 || after.length > MAX_CURSOR_LENGTH)) {
    throw new RequestError("invalid_cursor", "The page cursor is not valid.");
  }
  return after;
}
