"use client";

import { formatEventWhen, isUpcomingEvent } from "@/lib/format/events";
import { describeRegistrationState } from "@/lib/format/states";
import { FACT_SEPARATOR } from "@/lib/format/separator";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { Badge } from "@/components/ui/badge";
import { AddToCalendarButton } from "./add-to-calendar-button";

/**
 * One registration: title, when (in the member's time zone; all-day events as dates), where or the link,
 * the registration state in words, and "Add to calendar" for upcoming, non-cancelled events.
 */
export function EventItem({ registration, headingLevel = 3 }: { registration: EventRegistration; headingLevel?: 2 | 3 }) {
  const { locale, formatLocale, timeZone, now, messages } = useI18n();
  const { event } = registration;
  const when = formatEventWhen(event, { formatLocale, timeZone });
  const state = describeRegistrationState(registration.state, locale);
  const cancelled = registration.state === "cancelled";
  const upcoming = isUpcomingEvent(event, now, timeZone);
  const Heading = headingLevel === 2 ? "h2" : "h3";

  return (
    <article
      className={`card flex flex-col gap-3 p-4 sm:flex-row sm:items-start sm:justify-between sm:p-5 ${cancelled ? "bg-surface-muted" : ""}`}
    >
      <div className="flex min-w-0 flex-col gap-1.5">
        <Heading className="font-semibold leading-snug text-fg">{event.title}</Heading>
        <p className="text-fg">
          <time dateTime={when.dateTime}>{when.text}</time>
          {event.isAllDay ? <span className="text-fg-muted">{`${FACT_SEPARATOR}${messages.events.allDay}`}</span> : null}
        </p>
        {event.location ? <p className="break-words text-sm text-fg-muted">{event.location}</p> : null}
        {event.url && upcoming && !cancelled ? (
          <p className="text-sm">
            <a
              className="inline-flex min-h-11 items-center text-accent underline sm:min-h-6"
              href={event.url}
              target="_top"
              aria-label={interpolate(messages.shell.labelFor, {
                label: event.location ? messages.events.openLink : messages.shell.joinOnline,
                name: event.title,
              })}
            >
              {event.location ? messages.events.openLink : messages.shell.joinOnline}
            </a>
          </p>
        ) : null}
        <div>
          <Badge tone={state.tone}>{state.text}</Badge>
        </div>
      </div>
      {upcoming && !cancelled ? (
        <div className="shrink-0">
          <AddToCalendarButton registration={registration} />
        </div>
      ) : null}
    </article>
  );
}
