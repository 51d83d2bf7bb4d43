"use client";

import Link from "next/link";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { EventItem } from "@/components/events/event-item";
import { PAGE_PATHS } from "@/lib/contract/paths";

/** The next few upcoming events the member is registered for (null: the site does not provide registrations). */
export function UpcomingEvents({ registrations }: { registrations: EventRegistration[] | null }) {
  const { messages } = useI18n();
  return (
    <section aria-labelledby="overview-events" className="flex flex-col gap-3">
      <h2 id="overview-events" className="text-lg font-semibold text-fg">
        {messages.overview.upcomingEvents}
      </h2>
      {registrations === null ? (
        <p className="text-fg-muted">{messages.overview.upcomingEventsUnavailable}</p>
      ) : registrations.length === 0 ? (
        <p className="text-fg-muted">{messages.overview.upcomingEventsEmpty}</p>
      ) : (
        <ul className="flex flex-col gap-3">
          {registrations.map((registration) => (
            <li key={registration.id}>
              <EventItem registration={registration} />
            </li>
          ))}
        </ul>
      )}
      <p>
        <Link href={PAGE_PATHS.events} className="inline-flex min-h-11 items-center text-accent underline">
          {messages.overview.allEvents}
        </Link>
      </p>
    </section>
  );
}
