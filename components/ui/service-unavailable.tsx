"use client";

import { useI18n } from "@/lib/i18n/provider";

/**
 * A member page while the dashboard's shared state does not answer: the member is not signed out, only
 * asked to try again (a plain link, so it works before any script runs).
 */
export function ServiceUnavailable({ retryPath }: { retryPath: string }) {
  const { messages } = useI18n();
  return (
    <div role="alert" className="card mx-auto flex max-w-xl flex-col items-start gap-4 p-6">
      <h1 className="text-2xl font-semibold text-fg">{messages.errors.temporarilyUnavailableTitle}</h1>
      <p className="text-fg">{messages.errors.temporarilyUnavailable}</p>
      <a className="btn btn-primary" href={retryPath}>
        {messages.errors.retry}
      </a>
    </div>
  );
}
