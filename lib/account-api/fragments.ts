import "server-only";

/** What every connection the dashboard reads selects besides its nodes: the site's total and where to go on. */
export const CONNECTION_PAGING_FIELDS = /* GraphQL */ `totalCount
        pageInfo {
          hasNextPage
          endCursor
        }`;

/** The fields of an enrollment every dashboard operation selects. */
export const ENROLLED_COURSE_FIELDS = /* GraphQL */ `
  fragment DashboardEnrolledCourse on EnrolledCourse {
    slug
    name
    imageUrl
    expireDate
    hasLifetimeAccess
    completionPercentage
    lastWatchedLecture {
      lectureId
      positionSeconds
      title
      watchedAt
    }
  }
`;

/** The fields of an event registration every dashboard operation selects. */
export const EVENT_REGISTRATION_FIELDS = /* GraphQL */ `
  fragment DashboardEventRegistration on EventRegistration {
    id
    state
    registeredAt
    event {
      id
      title
      startTime
      endTime
      isAllDay
      location
      url
    }
  }
`;

/**
 * Raw `EnrolledCourse` as selected by {@link ENROLLED_COURSE_FIELDS}. Fields beyond the seed's are
 * optional: absent when the site lacks them (./schema-fitting.ts leaves them out of the query).
 */
export interface RawEnrolledCourse {
  slug: string;
  name?: string | null;
  imageUrl?: string | null;
  expireDate: string | null;
  hasLifetimeAccess: boolean;
  completionPercentage?: number | null;
  lastWatchedLecture: {
    lectureId: string;
    positionSeconds: number;
    title?: string | null;
    watchedAt?: string | null;
  } | null;
}

/** Raw `EventRegistration` as selected by {@link EVENT_REGISTRATION_FIELDS}. */
export interface RawEventRegistration {
  id: string;
  state: string;
  registeredAt?: string;
  event: {
    id: string;
    title: string;
    startTime: string;
    endTime?: string | null;
    isAllDay?: boolean;
    location?: string | null;
    url?: string | null;
  };
}

export interface RawPageInfo {
  hasNextPage: boolean;
  endCursor: string | null;
}

/** A connection as selected by the dashboard's operations; `pageInfo` and `totalCount` are absent on a site without them. */
export interface RawConnection<TNode> {
  nodes: TNode[];
  pageInfo?: RawPageInfo | null;
  totalCount?: number | null;
}
