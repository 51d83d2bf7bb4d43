"use client";

import { flattenPages, usePagedAccountPage } from "@/lib/client/hooks";
import { splitRegistrations } from "@/lib/format/events";
import { describeTimeZone } from "@/lib/format/time-zone-name";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { PageHeader } from "@/components/ui/page-header";
import { PagedQueryBody, type PagedItemProps } from "@/components/ui/paged-query-body";
import { PageSection } from "@/components/ui/page-section";
import { SiteLink } from "@/components/layout/site-link";
import { RegistrationList } from "./registration-list";

function RegistrationSection({
  id,
  title,
  empty,
  registrations,
  itemProps,
}: {
  id: string;
  title: string;
  empty: string;
  registrations: EventRegistration[];
  itemProps: (registration: EventRegistration) => PagedItemProps;
}) {
  return (
    <PageSection id={id} title={title}>
      {registrations.length === 0 ? (
        <p className="text-fg-muted">{empty}</p>
      ) : (
        <RegistrationList registrations={registrations} itemProps={itemProps} />
      )}
    </PageSection>
  );
}

/** The Events page: upcoming registrations (soonest first) and past ones (latest first), in that order. */
export function EventsView() {
  const { messages, now, timeZone, formatLocale } = useI18n();
  const query = usePagedAccountPage("events");
  const registrations = flattenPages(query.data?.pages, (registration) => registration.id);
  const { upcoming, past } = splitRegistrations(registrations, now, timeZone);

  return (
    <div>
      <PageHeader
        title={messages.events.title}
        description={
          upcoming.length + past.length > 0
            ? interpolate(messages.events.timeZoneNote, { timeZone: describeTimeZone(timeZone, formatLocale, now) })
            : undefined
        }
      />
      <PagedQueryBody
        query={query}
        items={[...upcoming, ...past]}
        // A registration the next page adds may sort above those already shown: "Show more" before the page
        // is interactive lands on the one of them shown first, as a hydrated press moves focus there.
        siteOrder={registrations}
        keyOf={(registration) => registration.id}
        texts={{
          error: messages.errors.events,
          empty: messages.events.empty,
          emptyBody: messages.events.emptyBody,
          showMore: messages.events.showMore,
          loadingMore: messages.courses.loadingMore,
          unavailableOne: messages.events.unavailableOne,
          unavailable: messages.events.unavailable,
        }}
        emptyAction={<SiteLink page="events" label={messages.emptyStates.seeEvents} />}
      >
        {(_items, itemProps) => (
          <div className="flex flex-col gap-8">
            {[
              { id: "events-upcoming", title: messages.events.upcoming, empty: messages.events.noUpcoming, registrations: upcoming },
              { id: "events-past", title: messages.events.past, empty: messages.events.noPast, registrations: past },
            ].map((section) => (
              <RegistrationSection key={section.id} {...section} itemProps={itemProps} />
            ))}
          </div>
        )}
      </PagedQueryBody>
    </div>
  );
}
