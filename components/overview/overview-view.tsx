"use client";

import { useAccountPage } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { OVERVIEW_WORDS } from "@/lib/i18n/messages/overview";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ContinueWatching } from "./continue-watching";
import { EndingSoon } from "./ending-soon";
import { UpcomingEvents } from "./upcoming-events";
import { useEmbedding } from "@/components/layout/embedding-context";

/** The Overview page, urgent first on every width: a greeting, Continue watching, access ending soon, then the next events. */
export function OverviewView() {
  const { messages } = useI18n();
  const words = useWords(OVERVIEW_WORDS);
  const { embedded } = useEmbedding();
  const query = useAccountPage("overview");

  if (query.isPending) {
    return (
      <div>
        <PageHeader title={messages.overview.title} />
        <LoadingState label={messages.app.loading} />
      </div>
    );
  }
  if (query.isError) {
    return (
      <div>
        <PageHeader title={messages.overview.title} />
        <ErrorPanel title={messages.errors.overview} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />
      </div>
    );
  }

  const overview = query.data;
  const retry = { onRetry: () => void query.refetch(), retrying: query.isFetching };
  return (
    <div>
      <PageHeader eyebrow={messages.overview.title} title={interpolate(words.greeting, { name: overview.name })} />
      {/* The panel's default view is what to continue and what ends soon, with their actions; the page adds the next events. */}
      <div className={`flex flex-col ${embedded ? "gap-6" : "gap-8"}`}>
        <ContinueWatching
          courses={overview.continueWatching}
          unknown={overview.continueWatchingUnknown}
          unavailable={overview.coursesUnavailable}
          retry={retry}
        />
        <EndingSoon courses={overview.endingSoon} leftOut={overview.coursesLeftOut} unavailable={overview.coursesUnavailable} />
        {embedded ? null : (
          <UpcomingEvents
            registrations={overview.upcomingEvents}
            failed={overview.upcomingEventsFailed === true}
            unavailable={overview.registrationsUnavailable}
            retry={retry}
          />
        )}
      </div>
    </div>
  );
}
