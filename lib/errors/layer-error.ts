/**
 * What each layer's error type shares (AuthError in lib/auth, SiteError in lib/site, SessionError in
 * lib/session): a stable code of that layer, our own message, and a short, safe, machine-readable detail
 * (an OAuth error code, a missing scope, an HTTP status), never free text from the site.
 * lib/http/error-responses.ts maps every layer's codes to what the browser is told.
 */
export abstract class LayerError<Code extends string> extends Error {
  readonly detail: string | undefined;

  constructor(
    readonly code: Code,
    message: string,
    options?: { cause?: unknown; detail?: string },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.detail = options?.detail;
  }
}
