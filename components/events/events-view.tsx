"use client";

import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { splitRegistrations } from "@/lib/format/events";
import { describeTimeZone } from "@/lib/format/time-zone-name";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody } from "@/components/ui/paged-query-body";
import { PageSection } from "@/components/ui/page-section";
import { SiteLink } from "@/components/layout/site-link";
import { RegistrationList } from "./registration-list";

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
    <PageSection id={id} title={title}>
      {registrations.length === 0 ? <p className="text-fg-muted">{empty}</p> : <RegistrationList registrations={registrations} />}
    </PageSection>
  );
}

/** The Events page: upcoming registrations (soonest first) and past ones (latest first). */
export function EventsView() {
  const { messages, now, timeZone, formatLocale } = useI18n();
  const query = usePagedAccountPage("events");
  const registrations = flattenPages(query.data?.pages, (registration) => registration.id);

  return (
    <div>
      <PageHeader
        title={messages.events.title}
        description={
          registrations.length > 0
            ? interpolate(messages.events.timeZoneNote, { timeZone: describeTimeZone(timeZone, formatLocale, now) })
            : undefined
        }
      />
      <PagedQueryBody
        query={query}
        items={registrations}
        texts={{
          error: messages.errors.events,
          empty: messages.events.empty,
          emptyBody: messages.events.emptyBody,
          showMore: messages.events.showMore,
          loadingMore: messages.courses.loadingMore,
        }}
        emptyAction={<SiteLink page="events" label={messages.emptyStates.seeEvents} />}
      >
        {(items) => {
          const { upcoming, past } = splitRegistrations(items, now);
          return (
            <div className="flex flex-col gap-8">
              <RegistrationSection
                id="events-upcoming"
                title={messages.events.upcoming}
                empty={messages.events.noUpcoming}
                registrations={upcoming}
              />
              <RegistrationSection id="events-past" title={messages.events.past} empty={messages.events.noPast} registrations={past} />
            </div>
          );
        }}
      </PagedQueryBody>
    </div>
  );
}
