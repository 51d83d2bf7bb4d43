"use client";

import { useRouter } from "next/navigation";
import { useOptimistic, useTransition } from "react";
import { persistLocale } from "@/lib/i18n/cookies";
import { isLocale, LOCALES, type Locale } from "@/lib/i18n/locales";
import { SETTINGS_WORDS } from "@/lib/i18n/messages/settings";
import { useI18n, useWords } from "@/lib/i18n/provider";
import { useChoiceMadeBeforeHydration } from "@/components/ui/use-choice-made-before-hydration";

/** One language's label: it takes the accent colour when its radio is checked, and the focus ring when it has focus. */
const LANGUAGE_OPTION_CLASS =
  "inline-flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-line bg-surface px-4 " +
  "has-[:checked]:border-accent has-[:checked]:bg-accent-soft " +
  "has-[:focus-visible]:outline has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-offset-2";

/**
 * Chooses the language: writes the `locale` cookie, then re-renders the app on the server in it. A language
 * tapped before the page became interactive is chosen once it is.
 */
export function LanguageSwitch() {
  const { locale } = useI18n();
  const words = useWords(SETTINGS_WORDS);
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // The tapped language stays checked while the server renders the app in it (a controlled radio would
  // otherwise jump back to the current language until the refresh lands).
  const [chosen, showChosen] = useOptimistic(locale);

  function choose(next: Locale) {
    if (next === chosen) return;
    persistLocale(next);
    startTransition(() => {
      showChosen(next);
      router.refresh();
    });
  }

  const switchControls = useChoiceMadeBeforeHydration<HTMLFieldSetElement>((values) => {
    const tapped = values.get("locale");
    if (isLocale(tapped)) choose(tapped);
  });

  return (
    <fieldset ref={switchControls} aria-busy={pending} className="flex flex-col gap-2">
      <legend className="sr-only">{words.language}</legend>
      <p className="text-sm text-fg-muted">{words.languageHelp}</p>
      <div className="flex flex-wrap gap-2">
        {LOCALES.map((option) => (
          <label key={option} lang={option} className={LANGUAGE_OPTION_CLASS}>
            <input
              type="radio"
              name="locale"
              value={option}
              checked={chosen === option}
              onChange={() => choose(option)}
              className="size-4 accent-[var(--accent)]"
            />
            <span className="text-fg">{words.languageNames[option]}</span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}
