import { RevokeConfirmation } from "@/components/settings/revoke-confirmation";

import { renderMemberPage } from "@/app/_lib/member-page";
import { PAGE_PATHS } from "@/lib/contract/paths";
import { localizedTitle } from "@/app/_lib/page-title";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";

export const generateMetadata = localizedTitle((_, locale) => SETTINGS_WORDS[locale].revokeTitle);

/** Never framed (lib/http/security-headers.ts): a confirmation no page can overlay or trick a click on. */
export default async function RevokePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { from } = await searchParams;
  // Opened by the embedded dashboard: the decision goes back to that frame, whose session it concerns.
  if (from === "frame") return <RevokeConfirmation fromFrame />;
  return renderMemberPage(PAGE_PATHS.revoke, () => Promise.resolve(), <RevokeConfirmation fromFrame={false} />);
}
