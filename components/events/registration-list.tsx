import type { NewItemFocusProps } from "@/lib/client/first-new-item-focus";
import type { EventRegistration } from "@/lib/types/account";
import { EventItem } from "./event-item";

/**
 * Event registrations as a list, one EventItem each (the Events page's sections and the Overview's Upcoming
 * events). `focusProps`: on the Events page, the first registration "Show more" adds takes focus.
 */
export function RegistrationList({
  registrations,
  focusProps,
}: {
  registrations: EventRegistration[];
  focusProps?: (registration: EventRegistration) => NewItemFocusProps;
}) {
  return (
    <ul className="flex flex-col gap-3">
      {registrations.map((registration) => (
        <li key={registration.id} {...focusProps?.(registration)} className="rounded-xl outline-offset-4">
          <EventItem registration={registration} />
        </li>
      ))}
    </ul>
  );
}
