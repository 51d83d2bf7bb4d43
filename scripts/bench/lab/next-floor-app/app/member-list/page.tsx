import { fetchMemberCourses, MemberCourses } from "../member-courses";

/**
 * The least a member's page can do on every view: the page behind a nonce CSP (../../proxy.ts) and one
 * call to the site for the member's courses, rendered as plain server markup: no session, no refresh, no
 * providers, no styles.
 */
export default async function MemberListPage() {
  return <MemberCourses courses={await fetchMemberCourses()} />;
}
