"use client";

import { describeAccess, type AccessTone } from "@/lib/format/access";
import { useI18n } from "@/lib/i18n/provider";
import type { CourseAccess } from "@/lib/types/account";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { TextKeptTogether } from "@/components/ui/text-kept-together";

const BADGE_TONES: Record<AccessTone, BadgeTone> = { lifetime: "lifetime", ok: "ok", warning: "warning", ended: "muted" };

/** The access state in words ("Access ends in 3 days"), tinted by tone as a second signal. */
export function AccessBadge({ access }: { access: CourseAccess }) {
  const { formatLocale, timeZone, now } = useI18n();
  const { tone, text, keepTogether } = describeAccess(access, { formatLocale, timeZone, now });
  return (
    <Badge tone={BADGE_TONES[tone]}>
      <span>
        <TextKeptTogether text={text} pieces={keepTogether} />
      </span>
    </Badge>
  );
}
