"use client";

import { useOnline } from "@/lib/client/use-online";
import { useI18n } from "@/lib/i18n/provider";

/** A quiet line while the browser is offline; it goes away on its own when the connection is back. */
export function OfflineBanner() {
  const { messages } = useI18n();
  const online = useOnline();
  return (
    <div role="status" className="empty:hidden">
      {online ? null : <p className="mx-auto max-w-5xl px-4 py-2 text-sm text-fg-muted">{messages.app.offline}</p>}
    </div>
  );
}
