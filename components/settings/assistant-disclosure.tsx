"use client";

import { lazy, Suspense, useState } from "react";
import { useConnections } from "@/lib/client/hooks";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { useWords } from "@/lib/i18n/provider";
import { OpensArrow } from "@/components/ui/opens-arrow";

/**
 * The AI assistants panel and its words, in a chunk of their own: the disclosure appears only once the
 * browser has learnt that the site's MCP server answers, so neither is part of the page's first load.
 */
const AssistantConnections = lazy(() => import("./connections-panel").then((module) => ({ default: module.AssistantConnections })));

/**
 * "Connect an AI assistant (beta)": shown once the site's MCP server answers (its "MCP connections" beta is on),
 * and from then on while Settings stays open. A later answer that it cannot serve (busy, not answering, the
 * member's sign-in refused: a refetch when the member comes back from setting up the assistant) is said inside,
 * with Retry where it may pass, instead of the disclosure vanishing under the member who was reading it.
 */
export function AssistantDisclosure() {
  const words = useWords(SETTINGS_WORDS);
  const connections = useConnections();
  const availableNow = connections.isSuccess && connections.data.available;
  const [shown, setShown] = useState(availableNow);
  if (availableNow && !shown) setShown(true);
  if (!availableNow && !shown) return null;
  return (
    <details className="group card p-4 sm:p-6">
      {/* keep-all: in a narrow panel zh-TW breaks before "（測試版）", never inside 測試版. The arrow sits on the
          title's first line when it wraps (baseline, not centre); py-2 on its 28 px line keeps the 44 px target.
          The title is a heading (HTML allows one in a summary), so the panel's own headings sit under it in
          the page's outline, not under "What this app may do". */}
      <summary className="inline-flex cursor-pointer items-baseline gap-2 py-2 text-lg font-semibold break-keep text-fg wrap-anywhere">
        <OpensArrow />
        <h2>{words.connectAssistant}</h2>
      </summary>
      <Suspense>
        <AssistantConnections />
      </Suspense>
    </details>
  );
}
