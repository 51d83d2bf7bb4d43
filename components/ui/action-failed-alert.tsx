"use client";

import { interpolate } from "@/lib/i18n";
import { useErrorReason } from "./error-panel";

/**
 * Why an action the member took (sign out, revoke, end sessions) failed, announced at once: `message` with
 * `{reason}` filled in from the error, in the member's language. Nothing while the action has not failed.
 */
export function ActionFailedAlert({ error, message, className }: { error: unknown; message: string; className?: string }) {
  const { reason } = useErrorReason(error);
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className={className ? `${className} font-medium text-danger-fg` : "font-medium text-danger-fg"}>
      {interpolate(message, { reason })}
    </p>
  );
}
