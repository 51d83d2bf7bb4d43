import { PageLink } from "@/components/ui/page-link";

import { PAGE_PATHS } from "@/lib/contract/paths";
import { getMessages } from "@/lib/i18n";

import { localizedTitle } from "@/app/_lib/page-title";
import { getRequestLocale } from "@/app/_lib/request-locale";

export const generateMetadata = localizedTitle((m) => m.pageTitles.notFound);

/** 404, in the member's language; the layout around it carries the navigation when the member is signed in. */
export default async function NotFound() {
  const messages = getMessages((await getRequestLocale()).locale);
  return (
    <div className="flex flex-col items-start gap-4">
      <h1 className="text-2xl font-semibold text-fg">{messages.pageTitles.notFound}</h1>
      <p className="text-fg-muted">{messages.pageTitles.notFoundBody}</p>
      <PageLink className="btn btn-primary" href={PAGE_PATHS.overview}>
        {messages.nav.overview}
      </PageLink>
    </div>
  );
}
