"use client";

import { PageLink } from "@/components/ui/page-link";
import { OVERVIEW_WORDS } from "@/lib/i18n/messages/overview";
import { useI18n, useWords } from "@/lib/i18n/provider";
import type { EventRegistration } from "@/lib/types/account";
import { RegistrationList } from "@/components/events/registration-list";
import { PageSection } from "@/components/ui/page-section";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { UnavailableItems } from "@/components/ui/unavailable-items";
import type { RetryAction } from "@/components/ui/retry-button";

/**
 * The next few upcoming events the member is registered for (null: the site does not provide registrations,
 * or, with `failed`, failed to give them this time).
 */
export function UpcomingEvents({
  registrations,
  failed = false,
  unavailable = 0,
  retry,
}: {
  registrations: EventRegistration[] | null;
  failed?: boolean;
  /** Registrations the site listed but could not give: any of them may be upcoming. */
  unavailable?: number;
  /** Asks the site for the overview again, from the note of registrations it could not give. */
  retry?: RetryAction;
}) {
  const { messages } = useI18n();
  const words = useWords(OVERVIEW_WORDS);
  return (
    <PageSection id="overview-events" title={words.upcomingEvents}>
      <UnavailableItems count={unavailable} words={messages.events} {...retry} />
      {registrations === null ? (
        <p className="text-fg-muted">{failed ? words.upcomingEventsFailed : words.upcomingEventsUnavailable}</p>
      ) : registrations.length === 0 ? (
        // None upcoming among those given: not said when some were not given.
        unavailable === 0 ? (
          <p className="text-fg-muted">{words.upcomingEventsEmpty}</p>
        ) : null
      ) : (
        <RegistrationList registrations={registrations} />
      )}
      <p>
        <PageLink href={PAGE_PATHS.events} className="inline-flex min-h-11 items-center text-accent underline">
          {words.allEvents}
        </PageLink>
      </p>
    </PageSection>
  );
}
