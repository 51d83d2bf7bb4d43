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
 * from 640 px, the pills above the sort, side by side from 1024 px.
 */
const CHOICES_CLASS =
  "grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-3 gap-y-2 " +
  "sm:flex sm:flex-col sm:gap-4 lg:flex-row lg:items-end lg:justify-between";

/** A select of the filters: the row's width beside its label on a phone. */
const SELECT_CLASS = "min-h-11 w-full min-w-0 rounded-[0.625rem] border border-line bg-surface px-3 text-fg sm:w-auto";

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
        className="min-h-11 w-full rounded-[0.625rem] border border-line bg-surface px-3 text-fg sm:max-w-md"
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
    <div ref={controls} className="mb-4 flex flex-col gap-3 sm:mb-6 sm:gap-4">
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
        <div className="contents sm:hidden">
          <label htmlFor="course-show" className="text-sm font-medium text-fg-muted">
            {messages.courses.show}
          </label>
          <select
            id="course-show"
            name="show"
            value={choice.show}
            onChange={(event) => {
              const show = COURSE_SHOWS.find((value) => value === event.target.value);
              if (show) onChange({ ...choice, show });
            }}
            className={SELECT_CLASS}
          >
            {COURSE_SHOWS.map((show) => (
              <option key={show} value={show}>
                {interpolate(messages.courses.showOption, { show: messages.courses.shows[show], count: counts[show] })}
              </option>
            ))}
          </select>
        </div>
        <div className="contents sm:flex sm:flex-col sm:gap-1">
          <label htmlFor="course-sort" className="text-sm font-medium text-fg-muted">
            {messages.courses.sortBy}
          </label>
          <select
            id="course-sort"
            name="sort"
            value={choice.sort}
            onChange={(event) => {
              const sort = COURSE_SORTS.find((value) => value === event.target.value);
              if (sort) onChange({ ...choice, sort });
            }}
            className={SELECT_CLASS}
          >
            {COURSE_SORTS.map((sort) => (
              <option key={sort} value={sort}>
                {messages.courses.sorts[sort]}
              </option>
            ))}
          </select>
        </div>
      </div>
    </div>
  );
}
