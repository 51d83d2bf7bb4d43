import type { Metadata } from "next";

import { PopupDone } from "@/components/layout/popup-done";

export const metadata: Metadata = { title: "Signed in" };

export default function PopupDonePage() {
  return <PopupDone />;
}
