import type { PagedItemProps } from "@/components/ui/paged-query-body";
import type { EventRegistration } from "@/lib/types/account";
import { EventItem } from "./event-item";

/**
 * Event registrations as a list, one EventItem each (the Events page's sections and the Overview's Upcoming
 * events). `itemProps`: on the Events page, each registration's position as its id, and focus on the first
 * one "Show more" adds.
 */
export function RegistrationList({
  registrations,
  itemProps,
}: {
  registrations: EventRegistration[];
  itemProps?: (registration: EventRegistration) => PagedItemProps;
}) {
  return (
    <ul className="flex flex-col gap-3">
      {registrations.map((registration) => (
        <li key={registration.id} {...itemProps?.(registration)} className="rounded-xl outline-offset-4">
          <EventItem registration={registration} />
        </li>
      ))}
    </ul>
  );
}
