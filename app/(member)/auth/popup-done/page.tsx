import { PopupDone } from "@/components/layout/popup-done";
import { localizedTitle } from "@/app/_lib/page-title";

export const generateMetadata = localizedTitle((m) => m.pageTitles.signedIn);

export default function PopupDonePage() {
  return <PopupDone />;
}
