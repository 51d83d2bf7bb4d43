import { API_ROUTES, type SignedOutReason } from "@/lib/contract/paths";

import { leaveForSignedOutPage } from "./api";
import { isInFrame } from "./embedding";

/**
 * What `POST /api/auth/logout` answered: why the member is signed out, and the dashboard's own path that
 * takes the browser on to end the site's session (GET /api/auth/end-session with its sealed ticket), or null.
 */
export interface SignOutOutcome {
  reason: SignedOutReason;
  endSessionUrl: string | null;
}

/** Only the dashboard's own end-session path is followed: never another origin, nor a scheme that runs script. */
const END_SESSION_PATH = `${API_ROUTES.endSession}?ticket=`;

/** Reads the logout route's answer. `complete: false`: signed out here, but the site did not confirm that it revoked the sign-in. */
export function readSignOutOutcome(answer: unknown): SignOutOutcome {
  const fields = typeof answer === "object" && answer !== null ? (answer as Record<string, unknown>) : {};
  const endSessionUrl =
    typeof fields.endSessionUrl === "string" && fields.endSessionUrl.startsWith(END_SESSION_PATH) ? fields.endSessionUrl : null;
  return { reason: fields.complete === false ? "signed_out_locally" : "signed_out", endSessionUrl };
}

/**
 * After Sign out: on to the site's end-session endpoint when it has one (through the dashboard's redirect;
 * the site sends the member back to the signed-out page), else straight to the signed-out page. Inside the
 * site's page the frame never goes to the site's pages (they refuse framing): the signed-out page there
 * says the site session is open.
 */
export function leaveAfterSignOut(outcome: SignOutOutcome): void {
  if (outcome.endSessionUrl && !isInFrame()) window.location.replace(outcome.endSessionUrl);
  else leaveForSignedOutPage(outcome.reason);
}
