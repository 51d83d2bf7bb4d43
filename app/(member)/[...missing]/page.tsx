import { notFound } from "next/navigation";

/**
 * Every path no page or route has: the member's 404 (app/(member)/not-found.tsx), in their language and,
 * when signed in, with the navigation. With two root layouts (the member's pages and the prerendered
 * signed-out page) there is no app-wide layout to render an unmatched path in, so this route takes them.
 */
export default function MissingPage(): never {
  notFound();
}
