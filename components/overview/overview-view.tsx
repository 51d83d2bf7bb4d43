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

/**
 * The Overview page: a greeting, Continue watching, access ending soon and the next events. In the
 * companion panel (its default view), Continue watching and Ending soon only, one under the other.
 */
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
        <div className="flex flex-col gap-6">
          <ContinueWatching course={overview.continueWatching} />
          <EndingSoon courses={overview.endingSoon} leftOut={overview.coursesLeftOut} />
        </div>
      ) : (
        // In reading order (the order of focus too): Continue watching, Ending soon beside it, then the events.
        <div className="grid gap-8 lg:grid-cols-5 lg:items-start">
          <div className="lg:col-span-3">
            <ContinueWatching course={overview.continueWatching} />
          </div>
          <div className="lg:col-span-2 lg:row-span-2">
            <EndingSoon courses={overview.endingSoon} leftOut={overview.coursesLeftOut} />
          </div>
          <div className="lg:col-span-3">
            <UpcomingEvents registrations={overview.upcomingEvents} />
          </div>
        </div>
      )}
    </div>
  );
}
