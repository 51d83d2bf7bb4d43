"use client";

import { useAccountPage } from "@/lib/client/hooks";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
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
  return (
    <div>
      <PageHeader eyebrow={messages.overview.title} title={interpolate(messages.overview.greeting, { name: overview.name })} />
      {embedded ? (
        // The panel's default view: what to continue and what ends soon, with their actions.
        <div className="flex flex-col gap-6">
          <ContinueWatching courses={overview.continueWatching} unknown={overview.continueWatchingUnknown} />
          <EndingSoon courses={overview.endingSoon} leftOut={overview.coursesLeftOut} />
        </div>
      ) : (
        <div className="flex flex-col gap-8">
          <ContinueWatching courses={overview.continueWatching} unknown={overview.continueWatchingUnknown} />
          <EndingSoon courses={overview.endingSoon} leftOut={overview.coursesLeftOut} />
          <UpcomingEvents registrations={overview.upcomingEvents} failed={overview.upcomingEventsFailed === true} />
        </div>
      )}
    </div>
  );
}
