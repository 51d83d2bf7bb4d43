/**
 * The sandbox site's course catalog: a dozen hand-written courses (used by the richer demo members) plus a
 * generated long tail so that one member can hold 130 enrollments with distinct, real-sounding courses.
 */

export interface Lecture {
  id: string;
  title: string;
  durationSeconds: number;
}

export interface Course {
  slug: string;
  name: string;
  description: string;
  /** Two colours for the generated SVG cover. */
  palette: readonly [string, string];
  lectures: readonly Lecture[];
}

interface CourseDraft {
  slug: string;
  name: string;
  description: string;
  palette: readonly [string, string];
  lectures: readonly (readonly [title: string, minutes: number])[];
}

const FEATURED: readonly CourseDraft[] = [
  {
    slug: "watercolor-foundations",
    name: "Watercolor Foundations",
    description: "Brushes, paper and pigments: paint loose, luminous landscapes from your first week.",
    palette: ["#2b6cb0", "#81e6d9"],
    lectures: [
      ["Choosing paper, brushes and paints", 14],
      ["Wet-on-wet washes", 22],
      ["Layering glazes without mud", 26],
      ["Painting skies and clouds", 31],
      ["Trees and foliage in three strokes", 28],
      ["Final project: a misty lakeside", 84],
    ],
  },
  {
    slug: "product-photography-at-home",
    name: "Product Photography at Home",
    description: "Shoot catalog-quality product photos with a phone, a window and a sheet of foam board.",
    palette: ["#744210", "#f6ad55"],
    lectures: [
      ["Light: the window is your softbox", 18],
      ["Backdrops and sweeps on a budget", 16],
      ["Composition for online shops", 21],
      ["Editing a consistent product set", 67],
      ["Shooting reflective objects", 24],
    ],
  },
  {
    slug: "mandarin-for-travelers",
    name: "Mandarin for Travelers",
    description: "Order food, ask for directions and make friends: practical Mandarin in twenty short lessons.",
    palette: ["#9b2c2c", "#fbb6ce"],
    lectures: [
      ["Tones without tears", 19],
      ["Greetings and introductions", 15],
      ["Numbers, prices and bargaining", 23],
      ["At the night market", 27],
      ["Taking the MRT and the high-speed rail", 25],
      ["Review: a day in Taipei", 72],
    ],
  },
  {
    slug: "data-analysis-with-python",
    name: "Data Analysis with Python",
    description: "From spreadsheets to pandas: clean, explore and chart real data sets.",
    palette: ["#22543d", "#68d391"],
    lectures: [
      ["Setting up Jupyter", 12],
      ["DataFrames in ten minutes", 29],
      ["Cleaning messy CSV files", 41],
      ["Group-by, pivot and merge", 38],
      ["Charts that tell a story", 35],
      ["Capstone: a sales dashboard", 95],
    ],
  },
  {
    slug: "ux-writing-essentials",
    name: "UX Writing Essentials",
    description: "Write buttons, errors and empty states that people understand at a glance.",
    palette: ["#553c9a", "#d6bcfa"],
    lectures: [
      ["What UX writing is for", 11],
      ["Voice and tone guides", 20],
      ["Error messages that help", 24],
      ["Microcopy for forms", 22],
      ["Testing words with users", 30],
    ],
  },
  {
    slug: "sourdough-baking-masterclass",
    name: "Sourdough Baking Masterclass",
    description: "Raise a starter, shape a boule and bake an open crumb in a home oven.",
    palette: ["#7b341e", "#fbd38d"],
    lectures: [
      ["Feeding and keeping a starter", 17],
      ["Autolyse, mixing and folds", 26],
      ["Shaping and proofing", 33],
      ["Scoring patterns", 14],
      ["Baking in a Dutch oven", 71],
    ],
  },
  {
    slug: "personal-finance-101",
    name: "Personal Finance 101",
    description: "Budgets, emergency funds and index investing explained without jargon.",
    palette: ["#234e52", "#4fd1c5"],
    lectures: [
      ["Where does the money go?", 16],
      ["A budget you will keep", 22],
      ["Emergency funds and insurance", 19],
      ["Index funds and compound interest", 28],
    ],
  },
  {
    slug: "guitar-for-absolute-beginners",
    name: "Guitar for Absolute Beginners",
    description: "Tune up, learn eight open chords and play your first songs in a month.",
    palette: ["#1a365d", "#90cdf4"],
    lectures: [
      ["Holding the guitar and tuning", 13],
      ["Your first three chords", 21],
      ["Strumming patterns", 18],
      ["Changing chords smoothly", 25],
      ["Play-along: four songs", 64],
    ],
  },
  {
    slug: "illustrator-icon-design",
    name: "Icon Design in Illustrator",
    description: "Design a consistent 24-icon set on a pixel grid and export it for the web.",
    palette: ["#97266d", "#fbb6ce"],
    lectures: [
      ["Grids, keylines and strokes", 20],
      ["Building icons from shapes", 27],
      ["Consistency across a set", 24],
      ["Exporting SVG for developers", 15],
    ],
  },
  {
    slug: "public-speaking-confidence",
    name: "Public Speaking with Confidence",
    description: "Structure a talk, calm your nerves and hold a room for twenty minutes.",
    palette: ["#2d3748", "#a0aec0"],
    lectures: [
      ["Why nerves happen", 12],
      ["Structuring a talk", 23],
      ["Slides that support you", 19],
      ["Rehearsal techniques", 21],
      ["Handling questions", 17],
    ],
  },
];

const TOPICS: readonly (readonly [name: string, slug: string])[] = [
  ["TypeScript", "typescript"],
  ["Figma Prototyping", "figma-prototyping"],
  ["Excel Modeling", "excel-modeling"],
  ["Digital Marketing", "digital-marketing"],
  ["Copywriting", "copywriting"],
  ["Video Editing", "video-editing"],
  ["Japanese Grammar", "japanese-grammar"],
  ["Yoga for Desk Workers", "yoga-for-desk-workers"],
  ["Interior Sketching", "interior-sketching"],
  ["SQL Reporting", "sql-reporting"],
  ["Podcast Production", "podcast-production"],
  ["Brand Strategy", "brand-strategy"],
  ["Music Theory", "music-theory"],
  ["Calligraphy", "calligraphy"],
  ["Project Management", "project-management"],
  ["Machine Learning", "machine-learning"],
  ["Cantonese Conversation", "cantonese-conversation"],
  ["Home Coffee Roasting", "home-coffee-roasting"],
  ["Negotiation", "negotiation"],
  ["3D Modeling in Blender", "3d-modeling-in-blender"],
];

const LEVELS: readonly (readonly [name: string, slug: string])[] = [
  ["Foundations of", "foundations-of"],
  ["Intermediate", "intermediate"],
  ["Advanced", "advanced"],
  ["Weekend Workshop:", "weekend-workshop"],
  ["Hands-on Lab:", "hands-on-lab"],
  ["Masterclass:", "masterclass"],
  ["Bootcamp:", "bootcamp"],
];

const GENERIC_LECTURES: readonly (readonly [string, number])[] = [
  ["Welcome and course overview", 8],
  ["Setting up your workspace", 14],
  ["Core concepts", 26],
  ["Guided practice", 33],
  ["Common mistakes and how to avoid them", 19],
  ["Project walkthrough", 62],
];

const PALETTES: readonly (readonly [string, string])[] = [
  ["#2c5282", "#63b3ed"],
  ["#276749", "#9ae6b4"],
  ["#9c4221", "#fbd38d"],
  ["#6b46c1", "#e9d8fd"],
  ["#b83280", "#fed7e2"],
  ["#2a4365", "#bee3f8"],
  ["#285e61", "#b2f5ea"],
];

function buildCourse(draft: CourseDraft, index: number): Course {
  return {
    slug: draft.slug,
    name: draft.name,
    description: draft.description,
    palette: draft.palette,
    lectures: draft.lectures.map(([title, minutes], lectureIndex) => ({
      // Numeric string identifiers, like the real platform's lecture ids.
      id: String(48_000 + index * 20 + lectureIndex + 1),
      title,
      durationSeconds: minutes * 60,
    })),
  };
}

function generatedDrafts(): CourseDraft[] {
  const drafts: CourseDraft[] = [];
  for (const [levelName, levelSlug] of LEVELS) {
    for (const [topicName, topicSlug] of TOPICS) {
      const index = drafts.length;
      drafts.push({
        slug: `${levelSlug}-${topicSlug}`,
        name: `${levelName} ${topicName}`,
        description: `${levelName} ${topicName}: short video lessons with exercises and a final project.`,
        palette: PALETTES[index % PALETTES.length] ?? ["#2d3748", "#cbd5e0"],
        lectures: GENERIC_LECTURES,
      });
    }
  }
  return drafts;
}

export const COURSES: readonly Course[] = [...FEATURED, ...generatedDrafts()].map(buildCourse);

const bySlug = new Map(COURSES.map((course) => [course.slug, course]));

export function findCourse(slug: string): Course | undefined {
  return bySlug.get(slug);
}

/**
 * Course `number` (from 1) of those beyond the listed catalog ("Elective 1", "Elective 2"...), which the
 * `extraEnrollments` knob enrols every member in, as on a site whose catalog is larger than this one.
 */
export function electiveCourse(number: number): Course {
  return buildCourse(
    {
      slug: `elective-${number}`,
      name: `Elective ${number}`,
      description: `Elective ${number}: short video lessons with exercises and a final project.`,
      palette: PALETTES[number % PALETTES.length] ?? ["#2d3748", "#cbd5e0"],
      lectures: GENERIC_LECTURES,
    },
    COURSES.length + number - 1,
  );
}

export function findLecture(course: Course, lectureId: string): Lecture | undefined {
  return course.lectures.find((lecture) => lecture.id === lectureId);
}

/** The course at `index` in catalog order; throws when out of range (a programming error in the seed). */
export function courseAt(index: number): Course {
  const course = COURSES[index];
  if (!course) throw new Error(`catalog has no course at index ${index}`);
  return course;
}

export function courseBySlug(slug: string): Course {
  const course = bySlug.get(slug);
  if (!course) throw new Error(`catalog has no course ${slug}`);
  return course;
}

export function lectureAt(course: Course, index: number): Lecture {
  const lecture = course.lectures[index];
  if (!lecture) throw new Error(`course ${course.slug} has no lecture at index ${index}`);
  return lecture;
}

export const FEATURED_COURSE_COUNT = FEATURED.length;

export interface CourseSection {
  id: string;
  title: string;
  lectures: readonly Lecture[];
}

/**
 * The course's curriculum in sections: the first two lectures get you started, the last one is the project, the
 * rest are the core lessons.
 */
export function courseSections(course: Course): CourseSection[] {
  const lectures = course.lectures;
  const start = lectures.slice(0, 2);
  const core = lectures.slice(2, Math.max(2, lectures.length - 1));
  const project = lectures.length > 2 ? lectures.slice(-1) : [];
  return [
    { id: `${course.slug}-s1`, title: "Getting started", lectures: start },
    { id: `${course.slug}-s2`, title: "Core lessons", lectures: core },
    { id: `${course.slug}-s3`, title: "Final project", lectures: project },
  ].filter((section) => section.lectures.length > 0);
}

/** Case-insensitive search in course names, descriptions and lecture titles. */
export function searchCourses(text: string): Course[] {
  const words = text
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== "");
  if (words.length === 0) return [];
  return COURSES.filter((course) => {
    const haystack = [course.name, course.description, ...course.lectures.map((lecture) => lecture.title)].join(" ").toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}
