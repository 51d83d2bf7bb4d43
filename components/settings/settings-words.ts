"use client";

import { SETTINGS_WORDS, type SettingsWords } from "@/lib/i18n/messages/settings";
import { useI18n } from "@/lib/i18n/provider";

/** The Settings pages' words in the member's language: apart from the dictionaries (lib/i18n/messages/settings.ts). */
export function useSettingsWords(): SettingsWords {
  return SETTINGS_WORDS[useI18n().locale];
}
