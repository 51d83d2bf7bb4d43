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
import { useI18n } from "@/lib/i18n/provider";
import { useChoiceMadeBeforeHydration } from "@/components/ui/use-choice-made-before-hydration";

/** One choice of the "Show" group: a pill that fills with the accent colour when its (hidden) radio is checked. */
const SHOW_CHIP_CLASS =
  "inline-flex min-h-11 items-center gap-2 rounded-full border border-line bg-surface px-3.5 text-sm font-medium text-fg " +
  "peer-checked:border-accent peer-checked:bg-accent peer-checked:text-accent-fg " +
  "peer-focus-visible:outline-3 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-(--focus)";

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
 * "Find a course", the "Show" group (radio buttons, each with its count; arrow keys move between them)
 * and the sort. Each reports the new choice; the page keeps it in the URL. A choice made before the page
 * became interactive is reported once it is.
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
    <div ref={controls} className="mb-6 flex flex-col gap-4">
      <CourseSearch choice={choice} onChange={onChange} />
      <div className="flex flex-col gap-4 lg:flex-row lg:items-end lg:justify-between">
        <fieldset className="min-w-0">
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
        <div className="flex flex-col gap-1">
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
            className="min-h-11 rounded-[0.625rem] border border-line bg-surface px-3 text-fg"
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
