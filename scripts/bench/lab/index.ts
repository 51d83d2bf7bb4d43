/**
 * The lab: tools for finding where time goes, not figures with targets. `npm run bench -- --lab=<names>`
 * loads this module (the default run does not) and adds the named sections after the measured ones.
 * `client-cost.ts` runs on its own (see its header).
 */
import type { BenchSection } from "../context";

import { compressionCost } from "./compression";
import { floorPhone } from "./floor-phone";
import { nextFloor } from "./next-floor";
import { shippedJavaScriptSize, siteRequestsPerPageView } from "./pages";
import { cpuProfiles } from "./profile";
import { sharedStateOverhead } from "./shared-state";
import { stageTimes } from "./stage-times-section";

export const LAB_SECTIONS: readonly BenchSection[] = [
  stageTimes,
  cpuProfiles,
  shippedJavaScriptSize,
  sharedStateOverhead,
  siteRequestsPerPageView,
  nextFloor,
  floorPhone,
  compressionCost,
];
