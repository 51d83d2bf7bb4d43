"use client";

import { useI18n } from "@/lib/i18n/provider";

/** The last resort for a page that failed to render: a plain message and Retry, never a stack trace. */
export default function PageError({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  const { messages } = useI18n();
  return (
    <div role="alert" className="card flex flex-col items-start gap-4 p-6">
      <h1 className="text-2xl font-semibold text-fg">{messages.errors.unexpected}</h1>
      <button type="button" className="btn btn-primary" onClick={reset}>
        {messages.errors.retry}
      </button>
    </div>
  );
}
