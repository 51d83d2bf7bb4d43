import type { SignedInSessionView } from "@/lib/contract/signed-in-sessions";

/** A row of "Where you're signed in" as GET /api/sessions lists it: `browser` on Android, in its own tab. */
export function signedInSessionView(id: string, browser: string, current = false): SignedInSessionView {
  return {
    id,
    current,
    browser,
    system: "Android",
    embedded: false,
    signedInAt: "1970-01-01T00:00:00.000Z",
    lastActiveAt: "1970-01-01T00:00:00.000Z",
  };
}
