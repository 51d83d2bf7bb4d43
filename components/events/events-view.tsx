"use client";

import type { ReactNode } from "react";
import { flattenPages, useEvents } from "@/lib/client/hooks";
import { splitRegistrations } from "@/lib/format/events";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { EmptyState } from "@/components/ui/empty-state";
import { ErrorPanel } from "@/components/ui/error-panel";
import { LoadingState } from "@/components/ui/loading-state";
import { PageHeader } from "@/components/ui/page-header";
import { ShowMoreButton } from "@/components/ui/show-more-button";
import { EventItem } from "./event-item";

function RegistrationSection({
  id,
  title,
  empty,
  registrations,
}: {
  id: string;
  title: string;
  empty: string;
  registrations: EventRegistration[];
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-lg font-semibold text-fg">
        {title}
      </h2>
      {registrations.length === 0 ? (
        <p className="text-fg-muted">{empty}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {registrations.map((registration) => (
            <li key={registration.id}>
              <EventItem registration={registration} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The Events page: upcoming registrations (soonest first) and past ones (latest first). */
export function EventsView() {
  const { messages, now, timeZone } = useI18n();
  const query = useEvents();
  const registrations = flattenPages(query.data?.pages);

  let body: ReactNode;
  if (query.isPending) {
    body = <LoadingState label={messages.app.loading} />;
  } else if (query.isError && registrations.length === 0) {
    body = <ErrorPanel title={messages.errors.events} error={query.error} onRetry={() => void query.refetch()} retrying={query.isFetching} />;
  } else if (registrations.length === 0) {
    body = <EmptyState title={messages.events.empty} body={messages.events.emptyBody} />;
  } else {
    const { upcoming, past } = splitRegistrations(registrations, now);
    body = (
      <div className="flex flex-col gap-8">
        <RegistrationSection id="events-upcoming" title={messages.events.upcoming} empty={messages.events.noUpcoming} registrations={upcoming} />
        <RegistrationSection id="events-past" title={messages.events.past} empty={messages.events.noPast} registrations={past} />
        {query.isFetchNextPageError ? (
          <ErrorPanel
            title={messages.errors.events}
            error={query.error}
            onRetry={() => void query.fetchNextPage()}
            retrying={query.isFetchingNextPage}
          />
        ) : query.hasNextPage ? (
          <ShowMoreButton
            onClick={() => void query.fetchNextPage()}
            loading={query.isFetchingNextPage}
            label={messages.events.showMore}
            loadingLabel={messages.courses.loadingMore}
          />
        ) : null}
      </div>
    );
  }

  return (
    <div>
      <PageHeader title={messages.events.title} description={interpolate(messages.events.timeZoneNote, { timeZone })} />
      {body}
    </div>
  );
}
