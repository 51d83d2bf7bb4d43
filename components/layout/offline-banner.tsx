"use client";

import { useSyncExternalStore } from "react";
import { useI18n } from "@/lib/i18n/provider";

function subscribeToConnectivity(onChange: () => void): () => void {
  window.addEventListener("online", onChange);
  window.addEventListener("offline", onChange);
  return () => {
    window.removeEventListener("online", onChange);
    window.removeEventListener("offline", onChange);
  };
}

/** A quiet line while the browser is offline; it goes away on its own when the connection is back. */
export function OfflineBanner() {
  const { messages } = useI18n();
  const online = useSyncExternalStore(
    subscribeToConnectivity,
    () => navigator.onLine,
    () => true,
  );
  return (
    <div role="status" className="empty:hidden">
      {online ? null : <p className="mx-auto max-w-5xl px-4 py-2 text-sm text-fg-muted">{messages.app.offline}</p>}
    </div>
  );
}
