"use client";

import { useState } from "react";

import {
  COURSE_SHOWS,
  COURSE_SORTS,
  MAX_SEARCH_LENGTH,
  courseChoiceQuery,
  parseCourseChoice,
  type CourseChoice,
  type CourseShow,
} from "@/lib/format/course-filter";
import { interpolate } from "@/lib/i18n";
import { useI18n } from "@/lib/i18n/provider";
import { useChoiceMadeBeforeHydration } from "@/components/ui/use-choice-made-before-hydration";

/** One choice of the "Show" group: a pill that fills with the accent colour when its (hidden) radio is checked. */
const SHOW_CHIP_CLASS =
  "inline-flex min-h-11 items-center gap-2 rounded-full border border-line bg-surface px-3.5 text-sm font-medium text-fg " +
  "peer-checked:border-accent peer-checked:bg-accent peer-checked:text-accent-fg " +
  "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-(--focus)";

/**
 * Show and Sort: on a phone, a row each, the label beside its select (their wrappers are `display: contents`);
 * narrower than 17rem (the panel on a 320 px phone), the label above its select (NARROW_CHOICE), so the select
 * has the row for its words;
 * from 640 px, the pills above the sort, both at the start of the row, side by side from 1024 px.
 */
const CHOICES_CLASS =
  "grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 @max-[17rem]:grid-cols-1 @max-[17rem]:gap-y-3 " +
  "sm:flex sm:flex-col sm:items-start sm:gap-4 lg:flex-row lg:items-end lg:justify-between";

/** A choice's wrapper narrower than 17rem: its label above its select. */
const NARROW_CHOICE = "@max-[17rem]:flex @max-[17rem]:flex-col @max-[17rem]:gap-1";

/** A select of the filters: the row's width beside its label on a phone. */
const SELECT_CLASS = "min-h-11 w-full min-w-0 rounded-[0.625rem] border border-control bg-surface px-3 text-fg sm:w-auto";

/** The "Showing N of M" line the results start with: where the keyboard's Search key takes the member. */
export const COURSE_RESULTS_ID = "course-results";

/**
 * "Find a course": filters as the member types. The field keeps what is typed (the URL follows it a
 * moment later); a change of the URL from elsewhere (back, forward) replaces it. The keyboard's Search
 * key (the form's submit) closes a phone's keyboard and goes to the results, which the filters and the
 * keyboard hid.
 */
function CourseSearch({ choice, onChange }: { choice: CourseChoice; onChange: (next: CourseChoice) => void }) {
  const { messages } = useI18n();
  const [text, setText] = useState(choice.q);
  const [seen, setSeen] = useState(choice.q);
  if (choice.q !== seen) {
    setSeen(choice.q);
    if (choice.q !== text) setText(choice.q);
  }
  return (
    <form
      role="search"
      className="flex flex-col gap-1"
      onSubmit={(event) => {
        event.preventDefault();
        (document.activeElement as HTMLElement | null)?.blur();
        document.getElementById(COURSE_RESULTS_ID)?.scrollIntoView({ block: "start" });
      }}
    >
      <label htmlFor="course-search" className="text-sm font-medium text-fg-muted">
        {messages.courses.findCourse}
      </label>
      <input
        id="course-search"
        type="search"
        name="q"
        value={text}
        maxLength={MAX_SEARCH_LENGTH}
        autoComplete="off"
        enterKeyHint="search"
        onChange={(event) => {
          setText(event.target.value);
          setSeen(event.target.value);
          onChange({ ...choice, q: event.target.value });
        }}
        className="min-h-11 w-full rounded-[0.625rem] border border-control bg-surface px-3 text-fg sm:max-w-md"
      />
    </form>
  );
}

/**
 * "Find a course", the "Show" choice and the sort. From 640 px, Show is a group of radio buttons, each with
 * its count (arrow keys move between them). On a narrower screen, where the pills and the labels above the
 * controls took most of a phone's first screen, Show is a select whose options carry the counts, and each
 * select sits on one row with its label beside it, under the search field.
 * Each reports the new choice; the page keeps it in the URL. A choice made before the page became
 * interactive is reported once it is (only the controls on screen count: the other Show is hidden).
 */
export function CourseFilters({
  choice,
  counts,
  onChange,
}: {
  choice: CourseChoice;
  counts: Readonly<Record<CourseShow, number>>;
  onChange: (next: CourseChoice) => void;
}) {
  const { messages } = useI18n();
  const controls = useChoiceMadeBeforeHydration<HTMLDivElement>((values) => {
    const made = parseCourseChoice(values);
    if (courseChoiceQuery(made) !== courseChoiceQuery(choice)) onChange(made);
  });
  return (
    <div ref={controls} className="@container mb-4 flex flex-col gap-3 sm:mb-6 sm:gap-4">
      <CourseSearch choice={choice} onChange={onChange} />
      <div className={CHOICES_CLASS}>
        <fieldset className="hidden min-w-0 sm:block">
          <legend className="mb-2 text-sm font-medium text-fg-muted">{messages.courses.show}</legend>
          <div className="flex flex-wrap gap-2">
            {COURSE_SHOWS.map((show) => (
              <label key={show} className="relative">
                <input
                  type="radio"
                  name="show"
                  value={show}
                  checked={choice.show === show}
                  onChange={() => onChange({ ...choice, show })}
                  className="peer absolute inset-0 size-full cursor-pointer appearance-none rounded-full opacity-0"
                />
                <span className={SHOW_CHIP_CLASS}>
                  {messages.courses.shows[show]}{" "}
                  <span className="rounded-full bg-surface-muted px-2 text-xs font-semibold tabular-nums text-fg">{counts[show]}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <ChoiceSelect
          id="course-show"
          name="show"
          className={`contents sm:hidden ${NARROW_CHOICE}`}
          label={messages.courses.show}
          value={choice.show}
          values={COURSE_SHOWS}
          optionLabel={(show) => interpolate(messages.courses.showOption, { show: messages.courses.shows[show], count: counts[show] })}
          onChoose={(show) => onChange({ ...choice, show })}
        />
        <ChoiceSelect
          id="course-sort"
          name="sort"
          className={`contents sm:flex sm:flex-col sm:gap-1 ${NARROW_CHOICE}`}
          label={messages.courses.sortBy}
          value={choice.sort}
          values={COURSE_SORTS}
          optionLabel={(sort) => messages.courses.sorts[sort]}
          onChoose={(sort) => onChange({ ...choice, sort })}
        />
      </div>
    </div>
  );
}

/** A labelled select of one of the choices, offering `values` only; `name` is the choice's URL parameter. */
function ChoiceSelect<T extends string>({
  id,
  name,
  className,
  label,
  value,
  values,
  optionLabel,
  onChoose,
}: {
  id: string;
  name: string;
  className: string;
  label: string;
  value: T;
  values: readonly T[];
  optionLabel: (value: T) => string;
  onChoose: (value: T) => void;
}) {
  return (
    <div className={className}>
      <label htmlFor={id} className="text-sm font-medium text-fg-muted">
        {label}
      </label>
      <select
        id={id}
        name={name}
        value={value}
        onChange={(event) => {
          const chosen = values.find((candidate) => candidate === event.target.value);
          if (chosen) onChoose(chosen);
        }}
        className={SELECT_CLASS}
      >
        {values.map((option) => (
          <option key={option} value={option}>
            {optionLabel(option)}
          </option>
        ))}
      </select>
    </div>
  );
}
