export { default } from "../../../next-floor-app/app/streamed-list/page";
