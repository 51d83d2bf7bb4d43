import type { EventRegistration } from "@/lib/types/account";
import { EventItem } from "./event-item";

/** Event registrations as a list, one EventItem each (the Events page's sections and the Overview's Upcoming events). */
export function RegistrationList({ registrations }: { registrations: EventRegistration[] }) {
  return (
    <ul className="flex flex-col gap-3">
      {registrations.map((registration) => (
        <li key={registration.id}>
          <EventItem registration={registration} />
        </li>
      ))}
    </ul>
  );
}
