import { SettingsView } from "@/components/settings/settings-view";
import { sessionQueryOptions } from "@/lib/client/queries";
import { toSessionView } from "@/lib/http/session-view";

import { renderMemberPage } from "@/app/_lib/member-page";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.nav.settings);

export default function SettingsPage() {
  return renderMemberPage(
    PAGE_PATHS.settings,
    (queryClient, session) => {
      // Who is signed in comes from the session itself: no call to the site.
      queryClient.setQueryData(sessionQueryOptions().queryKey, toSessionView(session));
      return Promise.resolve();
    },
    <SettingsView />,
  );
}
